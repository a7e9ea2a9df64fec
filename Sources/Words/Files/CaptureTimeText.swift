import CameraFacts
import Foundation
import MediaFormats
import TextKit

/// Capture times as the shell shows them: the clock time as written where the photo was taken (a time
/// with its own offset keeps it; a UTC time, an MP4 header's, is shown in this computer's zone), so that
/// `ls -l`, `info`, `find` and `import` show one time for a file. A time not read from the file yet (the
/// camera's date standing in) is marked with a leading `~` in listings.
extension DateText {
    /// The mark of a camera's date shown where the file's own time was not read yet.
    public static let pendingMark = "~"

    /// What the mark means, said under the first listing that shows it.
    public static let pendingLegend =
        "~ before a date: the camera's date for the file, shown until the file's own capture time is read "
        + "('info NAME' reads it; each ls -l reads more)"

    /// `2024-05-01 10:20` in `ls -l`; `~2024-06-01 12:00` for the camera's date standing in; `-` for none.
    public func listing(_ shown: ShownCaptureTime) -> String {
        guard let time = shown.time else { return "-" }
        let text = Self.clockText(time.clock(), seconds: false)
        return shown.pending ? Self.pendingMark + text : text
    }

    /// `2024-05-01 10:20:30 +02:00 (EXIF)` in `info`: seconds, the offset when known, the source.
    public func details(_ time: CaptureTime) -> String {
        var text = Self.clockText(time.clock(), seconds: true)
        if let offset = time.shownOffset() { text += " " + CaptureTime.offsetText(offset) }
        return text + " (" + Self.sourceWords(time.source) + ")"
    }

    /// `2024-05-01T10:20:30+02:00` (or without an offset when the time has none) in JSON.
    public func json(_ time: CaptureTime) -> String {
        var text = Self.clockText(time.clock(), seconds: true).replacingOccurrences(of: " ", with: "T")
        if let offset = time.shownOffset() { text += CaptureTime.offsetText(offset) }
        return text
    }

    /// The words `info` uses for a source.
    public static func sourceWords(_ source: CaptureTime.Source) -> String {
        switch source {
        case .exif: "EXIF"
        case .quickTime: "QuickTime creationdate"
        case .movieHeader: "MP4 header"
        case .srt: "SRT"
        case .camera: "the camera's date"
        case .fileTime: "the file's time"
        }
    }

    /// `2024-05-01 10:20` or `2024-05-01 10:20:30` of a floating clock time.
    public static func clockText(_ clock: Double, seconds: Bool) -> String {
        let (y, mo, d, h, mi, s) = CaptureTime.fields(clock)
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        var text = String(format: "%04d", y) + "-" + two(mo) + "-" + two(d) + " " + two(h) + ":" + two(mi)
        if seconds { text += ":" + two(s) }
        return text
    }
}
