import MediaFormats
import MediaManager
import Playback

/// select, info, offset.
extension Interpreter {
    func select(_ invocation: Invocation) throws {
        guard let word = invocation.arguments.first else { return }
        let catalog = try loadedCatalog()
        let file = try oneFile(for: word, in: catalog, command: "select")
        state.select(file, downloaded: partialSize(of: file) ?? 0)
        var line = "selected \(RemotePath.display(file.path)) (\(HumanReadable.size(file.size)))"
        if let offset = state.selection?.offset, offset > 0 {
            line += "; \(HumanReadable.size(offset)) already downloaded, 'fetch' continues"
        }
        output.line(line)
    }

    /// The single file `word` names; globs must match exactly one file.
    func oneFile(for word: Word, in catalog: MediaCatalog, command: String) throws -> MediaFile {
        let entries = try names(catalog).entries(for: word)
        let files = entries.compactMap { $0.isFolder ? nil : $0.file }
        guard files.count == 1, let file = files.first else {
            if files.isEmpty { throw CommandError("\(SafeText.display(word.text)) is a folder, not a file") }
            throw CommandError("'\(SafeText.display(word.text))' matches \(files.count) files; \(command) takes one")
        }
        return file
    }

    /// Where the `.part` of `file` would be in the download folder, and its size when there is one.
    func partPath(of file: MediaFile, in folder: String? = nil) -> String {
        LocalDisk.join(folder ?? downloadFolder(nil), LocalFileName.sanitize(file.name) + ".part")
    }

    func partialSize(of file: MediaFile, in folder: String? = nil) -> UInt64? {
        LocalDisk.size(partPath(of: file, in: folder))
    }

    func info(_ invocation: Invocation) throws {
        let session = try requireCamera()
        let catalog = try loadedCatalog()
        let file: MediaFile
        if let word = invocation.arguments.first {
            file = try oneFile(for: word, in: catalog, command: "info")
        } else {
            file = try selectedFile(in: catalog)
        }
        let details = Details(file: file, session: session, catalog: catalog)
        let downloaded = LocalDisk.size(LocalDisk.join(downloadFolder(nil), LocalFileName.sanitize(file.name)))
        let partial = partialSize(of: file)
        let selectedOffset = state.selection?.file.path == file.path ? state.selection?.offset : nil

        if invocation.has(.json) {
            var object = InfoJSON(entry: FileListing.jsonEntry(
                RemoteEntry(path: file.path, file: file, isFolder: false, shown: file.name), dates: dates))
            object.entry.duration = details.video?.duration ?? object.entry.duration
            object.entry.width = details.video?.width ?? details.photo?.displayWidth ?? object.entry.width
            object.entry.height = details.video?.height ?? details.photo?.displayHeight ?? object.entry.height
            object.entry.fps = details.video?.framesPerSecond ?? object.entry.fps
            object.entry.codec = details.video?.codec ?? object.entry.codec
            object.sidecars = details.sidecars.map(\.name)
            object.selected = selectedOffset != nil
            object.offset = selectedOffset
            object.downloaded = downloaded != nil ? file.size : partial
            output.line(FileListing.encode(object))
            return
        }

        var rows: [[String]] = [
            ["name:", SafeText.display(file.name)],
            ["folder:", RemotePath.display(file.folder)],
            ["size:", "\(HumanReadable.size(file.size)) (\(file.size) bytes)"],
        ]
        if let date = file.captureDate { rows.append(["date:", dates.details(date)]) }
        rows.append(["kind:", "\(FileListing.kind(of: file)) (\(file.kind.rawValue))"])
        if let video = details.video {
            rows.append(["duration:", video.duration.map { HumanReadable.duration(seconds: $0) } ?? "unknown"])
            if let width = video.width, let height = video.height {
                let orientation = video.orientation.map { " (\($0.rawValue))" } ?? ""
                rows.append(["resolution:", "\(width)x\(height)\(orientation)"])
            }
            rows.append(["frame rate:", video.framesPerSecond.flatMap { $0 > 0 ? FileListing.frameRate($0) : nil } ?? "unknown"])
            if let codec = video.codec { rows.append(["codec:", SafeText.display(codec)]) }
            if let truncation = details.truncation { rows.append(["truncated:", truncation]) }
        } else if let note = details.videoProblem {
            rows.append(["video:", SafeText.display(note)])
        }
        if let photo = details.photo {
            rows.append(["dimensions:", "\(photo.displayWidth)x\(photo.displayHeight)"])
            let camera = [photo.exif?.make, photo.exif?.model].compactMap { $0 }.joined(separator: " ")
            if !camera.isEmpty { rows.append(["taken with:", SafeText.display(camera)]) }
        }
        if !details.sidecars.isEmpty {
            rows.append(["sidecars:", details.sidecars.map { SafeText.display($0.name) }.joined(separator: ", ")])
        }
        if downloaded != nil {
            rows.append(["downloaded:", "yes, in \(SafeText.display(downloadFolder(nil)))"])
        } else if let partial {
            rows.append(["downloaded:", "\(HumanReadable.size(partial)) of \(HumanReadable.size(file.size)) (.part)"])
        }
        if let selectedOffset { rows.append(["selected:", "yes, offset \(selectedOffset)"]) }
        try printDetails(ColumnTable(rows: rows).lines(), of: file, session: session)
    }

    /// What `info` adds to the listing, read from the file's header through partial reads.
    private struct Details {
        var video: VideoDetails?
        var videoProblem: String?
        /// Set for a video cut short: where it stops playing.
        var truncation: String?
        var photo: JPEGInfo?
        var sidecars: [MediaFile]

        /// `plays to 0:02.7 of 0:04.0 (83 of 120 frames; the file ends at byte 54840)`, or nil when whole.
        static func truncationNote(_ movie: MovieInfo, fileSize: UInt64) -> String? {
            guard movie.isTruncated else { return nil }
            var text = "plays to " + (movie.durationSeconds.map { TimeText.format($0) } ?? "unknown")
            if let timeline = try? movie.videoTrack?.timeline.get(), let cut = timeline.truncation {
                if let declared = cut.declaredDuration { text += " of \(TimeText.format(declared))" }
                text += " (\(timeline.frameCount) of \(cut.declaredSamples) frames"
            } else {
                text += " (a fragment is cut off"
            }
            return text + "; the file ends at byte \(fileSize))"
        }

        init(file: MediaFile, session: MediaSession, catalog: MediaCatalog) {
            sidecars = Array(catalog.group(of: file).dropFirst())
            let canRead = session.camera.summary.canReadRanges
            if file.kind.isVideo, canRead {
                // The container is the one source of duration for info and play (ls -l shows the
                // camera's listing, which the virtual camera reads from the same container).
                do {
                    let movie = try session.movieInfo(for: file)
                    video = VideoDetails(movie: movie)
                    truncation = Self.truncationNote(movie, fileSize: file.size)
                    if video?.duration == nil { video?.duration = file.video?.duration }
                } catch {
                    video = file.video
                    if video == nil { videoProblem = "details unreadable (\(Interpreter.message(for: error)))" }
                }
            } else if file.kind.isVideo {
                video = file.video
            } else if file.kind == .jpeg, canRead {
                photo = try? JPEGReader().read(from: session.byteSource(for: file))
            }
        }
    }

    private struct InfoJSON: Encodable {
        var entry: FileListing.JSONEntry
        var sidecars: [String] = []
        var selected = false
        var offset: UInt64?
        var downloaded: UInt64?

        enum Keys: String, CodingKey {
            case sidecars, selected, offset, downloaded
        }

        func encode(to encoder: Encoder) throws {
            try entry.encode(to: encoder)
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(sidecars, forKey: .sidecars)
            try container.encode(selected, forKey: .selected)
            try container.encodeIfPresent(offset, forKey: .offset)
            try container.encodeIfPresent(downloaded, forKey: .downloaded)
        }
    }

    func offset(_ invocation: Invocation) throws {
        guard let selected = state.selection else {
            throw CommandError("no file selected ('select NAME' first)")
        }
        let name = SafeText.display(selected.file.name)
        guard let word = invocation.arguments.first else {
            let size = selected.file.size
            let local = LocalDisk.join(downloadFolder(nil), LocalFileName.sanitize(selected.file.name))
            if selected.offset == 0, LocalDisk.size(local) == size {
                output.line("\(name): downloaded (\(size) bytes, \(SafeText.display(local))); offset 0")
                return
            }
            let percent = size == 0 ? 100 : Int(Double(selected.offset) / Double(size) * 100)
            output.line("\(name): offset \(selected.offset) of \(size) bytes (\(percent)%)")
            return
        }
        guard let wanted = UInt64(word.text) else { return }
        guard wanted <= selected.file.size else {
            throw CommandError("\(wanted) is past the end of \(name) (\(selected.file.size) bytes)")
        }
        let onDisk = partialSize(of: selected.file) ?? 0
        guard wanted <= onDisk else {
            throw CommandError(
                "only \(onDisk) bytes of \(name) are on disk (\(name).part); the offset can go back, not past them")
        }
        state.setOffset(wanted)
    }
}
