import Checksums
import Foundation
import POSIX

/// What a `.part` is a part of, and how much of it is proven: the camera object it came from, and the
/// checksum of its first `bytes` bytes as they arrived from the camera. Kept with the `.part` (an extended
/// attribute, or a small sidecar `NAME.part.id` where the filesystem has none: a memory card's FAT), so that
/// a later run continues a `.part` only when it is a part of the very file it is asked for, and its bytes
/// on disk are still those that came (`PartProof`). Never trusted by the `.part`'s name alone: a card's
/// `DJI_0006.MP4` and the next card's are two files.
public struct PartRecord: Codable, Equatable, Sendable {
    /// The camera object a download reads: who the camera is, and the object as the camera listed it.
    public struct Source: Codable, Equatable, Sendable {
        /// The camera's identity: maker, model and serial number (a card folder's serial is its card's
        /// identity: `CardIdentity`).
        public var camera: String
        public var storage: UInt32
        /// The object's handle: recorded, not compared (many cameras number objects anew each session).
        public var handle: UInt32
        /// The folder on the card and the name the device gives the object.
        public var folder: String
        public var name: String
        public var size: UInt64
        /// The capture date the camera listed, in seconds since 1970 (rounded down); nil when it gave none.
        public var captured: Int64?

        public init(
            camera: String, storage: UInt32, handle: UInt32, folder: String, name: String, size: UInt64, captured: Date?
        ) {
            self.camera = camera
            self.storage = storage
            self.handle = handle
            self.folder = folder
            self.name = name
            self.size = size
            self.captured = captured.map { Int64($0.timeIntervalSince1970.rounded(.down)) }
        }

        /// A download known only by its name and size (a caller with no camera object: tests, tools).
        public static func named(_ name: String, size: UInt64) -> Source {
            Source(camera: "", storage: 0, handle: 0, folder: "", name: name, size: size, captured: nil)
        }

        /// What differs between the object a record names and `other`, in words ("camera", "size"); empty
        /// when they are the same object. The handle does not count.
        public func differences(from other: Source) -> [String] {
            var differ: [String] = []
            if camera != other.camera { differ.append("camera") }
            if storage != other.storage { differ.append("card") }
            if folder != other.folder { differ.append("folder") }
            if name != other.name { differ.append("name") }
            if size != other.size { differ.append("size") }
            if captured != other.captured { differ.append("capture date") }
            return differ
        }
    }

    /// The layout of this record; a record of another version is not read (the `.part` starts again).
    public var version = PartRecord.currentVersion
    public var source: Source
    /// How many of the `.part`'s first bytes `checksum` covers (bytes beyond are not proven).
    public var bytes: UInt64
    /// XXH3-128 of those bytes, as they arrived from the camera: `xxh128:HEX`.
    public var checksum: String

    public static let currentVersion = 1
    /// The extended attribute that holds it.
    static let attribute = "user.mediashell.part"
    /// A record is small; a larger value is not one of ours.
    static let maximumBytes = 4096

    public init(source: Source, bytes: UInt64, checksum: Checksum) {
        self.source = source
        self.bytes = bytes
        self.checksum = checksum.description
    }

    /// The sidecar that holds the record of `partPath` where the filesystem keeps no extended attributes.
    public static func sidecarPath(of partPath: String) -> String { partPath + ".id" }
}

/// Where the records of one `.part` are read and written: its extended attribute, or its sidecar where the
/// filesystem refuses attributes (or where `sidecarOnly` says so: tests of that path on a filesystem that
/// has them).
public struct PartRecordStore: Sendable {
    public let partPath: String
    public var sidecarOnly: Bool

    public init(partPath: String, sidecarOnly: Bool = false) {
        self.partPath = partPath
        self.sidecarOnly = sidecarOnly
    }

    var sidecar: String { PartRecord.sidecarPath(of: partPath) }

    /// The record of the `.part` open as `fd`: its attribute, else its sidecar; nil when it has none or one
    /// that cannot be read as a record of this version (a record that lies is no record).
    public func load(_ fd: Int32) -> PartRecord? {
        var bytes: [UInt8]?
        if !sidecarOnly { bytes = try? LocalDisk.extendedAttribute(fd, PartRecord.attribute, path: partPath, limit: PartRecord.maximumBytes) }
        if bytes == nil { bytes = try? LocalDisk.readWhole(sidecar, limit: PartRecord.maximumBytes) }
        guard let bytes, let record = try? JSONDecoder().decode(PartRecord.self, from: Data(bytes)),
            record.version == PartRecord.currentVersion
        else { return nil }
        return record
    }

    /// Writes `record` for the `.part` open as `fd`: its attribute where the filesystem keeps one, else the
    /// sidecar (replaced whole). Returns where it went.
    @discardableResult
    public func store(_ record: PartRecord, _ fd: Int32) throws(SystemError) -> Place {
        let encoded: [UInt8]
        do { encoded = Array(try JSONEncoder().encode(record)) } catch {
            throw SystemError(.encode, path: partPath, errno: EINVAL, detail: "the .part's record: \(error)")
        }
        if !sidecarOnly {
            do {
                try LocalDisk.setExtendedAttribute(fd, PartRecord.attribute, encoded, path: partPath)
                return .attribute
            } catch {
                // A card's FAT (no extended attributes), or a filesystem that refuses them otherwise (a
                // network share): the sidecar.
            }
        }
        try LocalDisk.writeAtomically(encoded, to: sidecar, durable: false)
        return .sidecar
    }

    /// Takes the record away from a `.part` whose bytes are all there (it is about to take its final name,
    /// and a record travels with a renamed file) or that starts again.
    public func remove(_ fd: Int32, from place: Place?) {
        switch place {
        case .attribute: try? LocalDisk.removeExtendedAttribute(fd, PartRecord.attribute, path: partPath)
        case .sidecar: LocalDisk.remove(sidecar)
        case nil:
            try? LocalDisk.removeExtendedAttribute(fd, PartRecord.attribute, path: partPath)
            LocalDisk.remove(sidecar)
        }
    }

    /// Where a record was written.
    public enum Place: Sendable, Equatable {
        case attribute, sidecar
    }
}
