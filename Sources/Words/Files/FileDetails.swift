import CameraFacts
import Foundation
import MediaFormats
import TextKit

/// What `info` adds to the listing: the facts the shell read from the file's header through partial reads.
public struct FileDetails {
    public var video: VideoDetails?
    public var videoProblem: String?
    /// Set for a video cut short: where it stops playing.
    public var truncation: String?
    public var photo: JPEGInfo?
    /// The EXIF tags of a photo (JPEG, TIFF, TIFF-based raw), read from its first bytes.
    public var exifTags: [ExifTag] = []
    /// What a DJI `.SRT` says of the flight (the file's own, or its clip's sidecar), and the file read.
    public var flight: FlightSummary?
    public var flightFile: MediaFile?
    /// Why the `.SRT` could not be read, when it could not.
    public var flightProblem: String?
    public var sidecars: [MediaFile]
    /// The kind its first bytes show, read (one small partial read) only when the name says nothing.
    public var kindFromContent: MediaKind?
    /// The one capture time (read from the header now, or known), and the camera's own date for the file.
    public var taken: ResolvedCaptureTime
    public var listed: CaptureTime?
    public let file: MediaFile

    /// The facts every file has; what its bytes say is added by whoever reads them (the shell's `info`).
    public init(file: MediaFile, sidecars: [MediaFile], taken: ResolvedCaptureTime, listed: CaptureTime?) {
        self.file = file
        self.sidecars = sidecars
        self.taken = taken
        self.listed = listed
    }

    /// The most a `.SRT` may have to be read for `info` (a long flight's is some megabytes).
    public static let largestFlightLog: UInt64 = 64 << 20

    /// `plays to 0:02.7 of 0:04.0 (81 of 120 frames; the file ends at byte 54840)`, or nil when whole.
    public static func truncationNote(_ movie: MovieInfo, fileSize: UInt64) -> String? {
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

    /// The rows of `info`: name, folder, size, date, kind, the video's or photo's details, sidecars.
    public func rows(dates: DateText) -> [[String]] {
        var rows: [[String]] = [
            ["name:", SafeText.display(file.name)],
            ["folder:", RemotePath.display(file.folder)],
            ["size:", "\(HumanReadable.size(file.size)) (\(file.size) bytes)"],
        ]
        // The date the device lists, under its own name: a card folder's is its file's time, not a camera's.
        let listedName = listed?.source == .fileTime ? "file's time:" : "camera's date:"
        if let time = taken.time {
            rows.append(["taken:", dates.details(time)])
            // The camera's own date beside it, when it says something else (by more than a minute).
            if let listed, time.source != listed.source, abs(listed.instant().timeIntervalSince(time.instant())) > 60 {
                rows.append([listedName, DateText.clockText(listed.clock(), seconds: true)])
            }
        } else if let listed {
            rows.append([listedName, DateText.clockText(listed.clock(), seconds: true) + " (not believed)"])
        }
        if !taken.setAside.isEmpty {
            rows.append(["passed over:", taken.setAside.joined(separator: ", ") + " (nonsense dates)"])
        }
        if let kindFromContent {
            rows.append(["kind:", "\(kindFromContent.rawValue) (from its first bytes; the camera and the name say nothing)"])
        } else {
            rows.append(["kind:", "\(FileListing.kind(of: file)) (\(file.kind.rawValue))"])
        }
        if let video {
            rows.append(["duration:", video.duration.map { HumanReadable.duration(seconds: $0) } ?? "unknown"])
            if let width = video.width, let height = video.height {
                let orientation = video.orientation.map { " (\($0.rawValue))" } ?? ""
                rows.append(["resolution:", "\(width)x\(height)\(orientation)"])
            }
            rows.append(["frame rate:", FileListing.frameRate(of: video) ?? "unknown"])
            if let codec = video.codec { rows.append(["codec:", SafeText.display(codec)]) }
            if let truncation { rows.append(["truncated:", truncation]) }
        } else if let videoProblem {
            rows.append(["video:", SafeText.display(videoProblem)])
        }
        if let photo { rows.append(["dimensions:", "\(photo.displayWidth)x\(photo.displayHeight)"]) }
        rows += ExifWords.rows(ExifDetails(tags: exifTags))
        if let flight, let flightFile {
            rows += FlightWords.rows(flight, from: flightFile.name)
        } else if let flightProblem, let flightFile {
            rows.append(["flight:", SafeText.display(flightFile.name) + " " + flightProblem])
        }
        if !sidecars.isEmpty {
            rows.append(["sidecars:", sidecars.map { SafeText.display($0.name) }.joined(separator: ", ")])
        }
        return rows
    }

    /// The `downloaded:` row: a copy proven to be the file (`yes, in DIR`, or `yes, as NAME (2).JPG in DIR`
    /// where a fetch named it beside a different file), a different file of its name, or the bytes of its
    /// `.part`; nil when the folder has nothing of it.
    public func downloadedRow(_ local: DownloadedCopy, partial: UInt64?, folder: String) -> [String]? {
        let shownFolder = SafeText.display(folder)
        let part = partial.map { "\(HumanReadable.size($0)) of \(HumanReadable.size(file.size)) (.part)" }
        switch local {
        case .proven(let path):
            let name = (path as NSString).lastPathComponent
            let renamed = name == LocalFileName.sanitize(file.name) ? "" : "as \(SafeText.display(name)) "
            return ["downloaded:", "yes, \(renamed)in \(shownFolder)"]
        case .different:
            return ["downloaded:", (part ?? "no") + "; a different file of this name is in \(shownFolder)"]
        case .absent:
            return part.map { ["downloaded:", $0] }
        }
    }
}
