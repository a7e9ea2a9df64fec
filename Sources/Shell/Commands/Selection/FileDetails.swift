import MediaFormats
import MediaManager

/// What `info` adds to the listing, read from the file's header through partial reads.
struct FileDetails {
    var video: VideoDetails?
    var videoProblem: String?
    var photo: JPEGInfo?
    var sidecars: [MediaFile]
    let file: MediaFile

    init(file: MediaFile, session: MediaSession, catalog: MediaCatalog) {
        self.file = file
        sidecars = Array(catalog.group(of: file).dropFirst())
        let canRead = session.camera.summary.canReadRanges
        if file.kind.isVideo {
            if let known = file.video, known.duration != nil, known.width != nil {
                video = known
                if known.codec == nil, canRead, let movie = try? session.movieInfo(for: file) {
                    video?.codec = movie.videoTrack?.codec?.description
                }
            } else if canRead {
                do {
                    video = try session.videoDetails(for: file)
                } catch {
                    videoProblem = "details unreadable (\(Interpreter.message(for: error)))"
                }
            } else {
                video = file.video
            }
        } else if file.kind == .jpeg, canRead {
            photo = try? JPEGReader().read(from: session.byteSource(for: file))
        }
    }

    /// The rows of `info`: name, folder, size, date, kind, the video's or photo's details, sidecars.
    func rows(dates: DateText) -> [[String]] {
        var rows: [[String]] = [
            ["name:", SafeText.display(file.name)],
            ["folder:", RemotePath.display(file.folder)],
            ["size:", "\(HumanReadable.size(file.size)) (\(file.size) bytes)"],
        ]
        if let date = file.captureDate { rows.append(["date:", dates.details(date)]) }
        rows.append(["kind:", "\(FileListing.kind(of: file)) (\(file.kind.rawValue))"])
        if let video {
            if let duration = video.duration { rows.append(["duration:", HumanReadable.duration(seconds: duration)]) }
            if let width = video.width, let height = video.height {
                let orientation = video.orientation.map { " (\($0.rawValue))" } ?? ""
                rows.append(["resolution:", "\(width)x\(height)\(orientation)"])
            }
            if let fps = video.framesPerSecond, fps > 0 { rows.append(["frame rate:", FileListing.frameRate(fps)]) }
            if let codec = video.codec { rows.append(["codec:", SafeText.display(codec)]) }
        } else if let videoProblem {
            rows.append(["video:", SafeText.display(videoProblem)])
        }
        if let photo {
            rows.append(["dimensions:", "\(photo.displayWidth)x\(photo.displayHeight)"])
            let camera = [photo.exif?.make, photo.exif?.model].compactMap { $0 }.joined(separator: " ")
            if !camera.isEmpty { rows.append(["taken with:", SafeText.display(camera)]) }
        }
        if !sidecars.isEmpty {
            rows.append(["sidecars:", sidecars.map { SafeText.display($0.name) }.joined(separator: ", ")])
        }
        return rows
    }
}
