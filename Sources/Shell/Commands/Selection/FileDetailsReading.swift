import MediaFormats
import MediaManager
import Playback
import TerminalKit
import Words

/// `info`'s reading of a file: its header (video container, JPEG, EXIF), its first bytes when its name says
/// nothing, and its flight log, through the session's partial reads; `FileDetails` (Words) says them.
extension FileDetails {
    /// Reads what `file`'s first bytes (and its `.SRT`) say, through the session's partial reads.
    init(reading file: MediaFile, session: MediaSession, catalog: MediaCatalog) {
        self.init(
            file: file, sidecars: Array(catalog.group(of: file).dropFirst()), taken: session.resolveCaptureTime(file),
            listed: session.listedCaptureTime(file))
        let canRead = session.camera.summary.canReadRanges
        var kind = file.kind
        if kind == .other, canRead, file.size > 0,
            let start = try? session.byteSource(for: file).read(offset: 0, count: MediaKind.contentSniffLength),
            let sniffed = MediaKind(contentStart: start)
        {
            kindFromContent = sniffed
            kind = sniffed
        }
        if kind.isVideo, canRead {
            // The container is the one source of duration for info and play (ls -l shows the camera's
            // listing, which the virtual camera reads from the same container).
            do {
                let movie = try session.movieInfo(for: file)
                video = VideoDetails(movie: movie)
                truncation = FileDetails.truncationNote(movie, fileSize: file.size)
                if video?.duration == nil { video?.duration = file.video?.duration }
            } catch {
                video = file.video
                if video == nil { videoProblem = "details unreadable (\(ErrorWords.sentence(for: error)))" }
            }
        } else if kind.isVideo {
            video = file.video
        } else if kind == .jpeg, canRead {
            photo = try? JPEGReader().read(from: session.byteSource(for: file))
            exifTags = photo?.exif?.tags ?? []
        } else if kind == .raw || kind == .tiff, canRead {
            exifTags = (try? ExifReader().tags(from: session.byteSource(for: file))) ?? []
        }
        if let srt = kind == .telemetry ? file : sidecars.first(where: { $0.kind == .telemetry && $0.size > 0 }) {
            readFlight(srt, session: session)
        }
    }

    /// Reads the whole `.SRT` (a sidecar on the camera, small) for its flight.
    private mutating func readFlight(_ srt: MediaFile, session: MediaSession) {
        flightFile = srt
        guard srt.size <= FileDetails.largestFlightLog else {
            flightProblem = "is \(HumanReadable.size(srt.size)), more than info reads (\(HumanReadable.size(FileDetails.largestFlightLog)))"
            return
        }
        do {
            let summary = FlightSummary(srt: try session.byteSource(for: srt).read(offset: 0, count: Int(srt.size)))
            if !summary.isEmpty { flight = summary }
        } catch {
            flightProblem = "is unreadable (\(ErrorWords.sentence(for: error)))"
        }
    }
}
