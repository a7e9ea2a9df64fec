import Foundation
import MediaFormats
import MediaManager

/// Which files of a card a listing keeps (`find`, `ls -R`, `du`): taken since or until a date, of a kind,
/// larger than a size, or not imported yet (not in the camera's import ledger).
public struct CardFilter {
    public enum Kind: String, Sendable, CaseIterable {
        case photo, video, raw
    }

    public var since: Date?
    /// Exclusive: the first moment not kept.
    public var until: Date?
    public var kind: Kind?
    public var larger: UInt64?
    /// Keeps only files the ledger does not have.
    public var ledgers: CameraLedgers?

    public init() {}

    public var isEmpty: Bool { since == nil && until == nil && kind == nil && larger == nil && ledgers == nil }

    /// True when the filter compares capture times: they are read first.
    public var needsTimes: Bool { since != nil || until != nil }

    /// The clock time of a date typed in local time, to compare with capture times as shown (as written
    /// where they were taken).
    static func clock(_ date: Date) -> Double {
        date.timeIntervalSince1970 + Double(TimeZone.current.secondsFromGMT(for: date))
    }

    /// True when `file` is kept; `timeToo`: its capture time (the session's one time per file) is compared too.
    public func keeps(_ file: MediaFile, in session: MediaSession, timeToo: Bool = true) -> Bool {
        if file.isFolder { return false }
        if timeToo, needsTimes {
            let clock = session.shownCaptureTime(file).time?.clock()
            if let since, (clock ?? -.infinity) < Self.clock(since) { return false }
            if let until, (clock ?? .infinity) >= Self.clock(until) { return false }
        }
        if let larger, file.size <= larger { return false }
        if let kind {
            switch kind {
            case .photo: if ![.jpeg, .heic, .tiff].contains(file.kind) { return false }
            case .video: if ![.mp4, .mov].contains(file.kind) { return false }
            case .raw: if file.kind != .raw { return false }
            }
        }
        if let ledgers, ledgers.entry(for: file) != nil { return false }
        return true
    }
}
