import Checksums
import Foundation
import MediaFormats

/// What makes a camera object the same object on another day: its name on the card, its size and its
/// capture date (to the second). Handles change between sessions and folders between card layouts; a
/// file written to both slots of a dual-slot camera is one photo and is imported once.
public struct ObjectIdentity: Hashable, Sendable, Codable {
    public var name: String
    public var size: UInt64
    /// Seconds since 1970, rounded down; nil when the device gave no date.
    public var captured: Int64?

    public init(name: String, size: UInt64, captured: Date?) {
        self.name = name
        self.size = size
        self.captured = captured.map { Int64($0.timeIntervalSince1970.rounded(.down)) }
    }
}

/// One imported object in the ledger: what it was on the card, where it went, and when.
public struct LedgerEntry: Sendable, Equatable, Codable {
    public var name: String
    /// The folder on the card, e.g. "DCIM/100MEDIA" (for the record only; not part of the identity).
    public var folder: String
    public var size: UInt64
    /// The device's date for the object, seconds since 1970 (part of its identity: known without reading it).
    public var captured: Int64?
    /// The capture time the import used (shifted by `shift`), as `CaptureTime.text` writes it
    /// (`2024-05-01T10:20:30+02:00`); nil in entries written before it was kept.
    public var taken: String?
    /// Where `taken` came from (`EXIF`, `QuickTime`, `MP4`, `SRT`, `camera`, `file`).
    public var takenFrom: String?
    /// The seconds `import --shift` added to it (nil: none).
    public var shift: Double?
    /// XXH3-128 of the bytes written, hex, computed as they arrived (entries recorded since checksums came
    /// from libxxhash).
    public var xxh128: String?
    /// SHA-256 of the bytes written, hex (entries recorded before XXH3-128).
    public var sha256: String?
    /// The local file it was written to (or found already there), absolute; with backups, the first copy
    /// that was proven.
    public var path: String
    /// Every proven copy (the first copy's and each backup's), when the import wrote more than one; nil
    /// for an import to one destination, whose copy is `path`.
    public var copies: [String]?
    /// The destination roots it was meant to reach but is not proven in (a backup that was full or
    /// removed, a copy that read back wrong); nil when it is in every one.
    public var missing: [String]?
    /// When it was recorded, seconds since 1970.
    public var imported: Int64
    /// The `%n` number its group was given.
    public var sequence: Int?
    /// The copies `verify --repair` replaced since, oldest first; nil when none was (and in ledgers written
    /// before repairs were kept).
    public var repairs: [LedgerRepair]?

    public init(
        name: String, folder: String, size: UInt64, captured: Date?, checksum: Checksum?, path: String, imported: Date,
        sequence: Int? = nil, taken: CaptureTime? = nil, shift: Double = 0
    ) {
        self.taken = taken?.text
        self.takenFrom = taken?.source.rawValue
        self.shift = shift == 0 ? nil : shift
        self.name = name
        self.folder = folder
        self.size = size
        self.captured = captured.map { Int64($0.timeIntervalSince1970.rounded(.down)) }
        xxh128 = checksum?.algorithm == .xxh128 ? checksum?.hex : nil
        sha256 = checksum?.algorithm == .sha256 ? checksum?.hex : nil
        self.path = path
        self.imported = Int64(imported.timeIntervalSince1970.rounded(.down))
        self.sequence = sequence
    }

    /// The checksum recorded for the file's bytes: XXH3-128, else (an older entry) SHA-256.
    public var checksum: Checksum? {
        if let xxh128 { return Checksum(.xxh128, hex: xxh128) }
        return sha256.map { Checksum(.sha256, hex: $0) }
    }

    /// The capture time the import used (shifted), when the entry keeps it.
    public var takenTime: CaptureTime? {
        guard let taken, let source = takenFrom.flatMap(CaptureTime.Source.init(rawValue:)) else { return nil }
        return CaptureTime(text: taken, source: source)
    }

    /// The file's capture time as read before any shift: what the session may take instead of reading it.
    public var unshiftedTime: CaptureTime? { takenTime?.shifted(by: -(shift ?? 0)) }

    /// Every copy the ledger knows of.
    public var allCopies: [String] { copies ?? [path] }

    public var identity: ObjectIdentity {
        var id = ObjectIdentity(name: name, size: size, captured: nil)
        id.captured = captured
        return id
    }
}

/// One copy of an entry that `verify --repair` replaced with proven bytes: which, from where, when, and
/// where the bytes that failed were kept.
public struct LedgerRepair: Sendable, Equatable, Codable {
    /// The copy replaced (one of the entry's `allCopies`).
    public var path: String
    /// Where its bytes came from: another copy's path, or `camera:FOLDER/NAME`, the camera's file.
    public var from: String
    /// When, seconds since 1970.
    public var at: Int64
    /// Where the copy that failed was moved (`PATH.verify-failed`); nil when it was missing.
    public var kept: String?

    public init(path: String, from: String, at: Date, kept: String?) {
        self.path = path
        self.from = from
        self.at = Int64(at.timeIntervalSince1970.rounded(.down))
        self.kept = kept
    }
}

/// The ledger file's content: a format tag and version (so that a file of something else is refused),
/// the camera it belongs to, the last sequence number handed out, and the entries.
struct LedgerDocument: Codable, Sendable {
    static let formatName = "mediashell-import-ledger"
    static let currentVersion = 1

    var format: String
    var version: Int
    var camera: String
    var sequence: Int
    /// This camera's time shift in seconds (`set time-shift`): added to every capture time it gives.
    var shift: Double?
    var entries: [LedgerEntry]

    init(camera: String) {
        format = Self.formatName
        version = Self.currentVersion
        self.camera = camera
        sequence = 0
        entries = []
    }
}
