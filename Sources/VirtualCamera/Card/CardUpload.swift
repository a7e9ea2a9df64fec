import Foundation
import PTP

/// What a writable card accepts from an initiator (`serve --writable`). Uploads are off unless a card is
/// given one of these.
public struct UploadPolicy: Sendable {
    /// The largest file accepted, in bytes.
    public var maximumObjectSize: UInt64
    /// Space left free on the served filesystem: an upload that would eat into it is refused.
    public var reservedSpace: UInt64

    public init(maximumObjectSize: UInt64 = 4 << 30, reservedSpace: UInt64 = 16 << 20) {
        self.maximumObjectSize = maximumObjectSize
        self.reservedSpace = reservedSpace
    }
}

/// A file promised by SendObjectInfo and not yet sent: where it goes and the handle it will have.
public struct PendingUpload: Sendable, Equatable {
    public var handle: UInt32
    public var folderPath: String
    public var name: String
    /// As announced; nil when the initiator said "4 GiB or more" (0xFFFFFFFF).
    public var announcedSize: UInt64?
    /// The most bytes SendObject may bring.
    public var limit: UInt64

    public var path: String { folderPath.isEmpty ? name : folderPath + "/" + name }
}

extension Card {
    /// A name from an initiator made safe for the served folder: control characters dropped, `/` and `\`
    /// replaced, a leading dot replaced (hidden names are never served), at most 255 bytes. nil when
    /// nothing usable is left (empty, `.`, `..`).
    public static func sanitizedName(_ raw: String) -> String? {
        var scalars = String.UnicodeScalarView()
        for scalar in raw.unicodeScalars {
            switch scalar.value {
            case 0..<0x20, 0x7F..<0xA0: continue
            case 0x2F, 0x5C: scalars.append("_")
            default: scalars.append(scalar)
            }
        }
        var name = String(scalars).trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, name != ".", name != ".." else { return nil }
        if name.hasPrefix(".") { name = "_" + name.dropFirst() }
        guard name.utf8.count <= 255 else { return nil }
        return name
    }

    /// The folder path an upload into `parent` (0: the root) goes to, after checking that uploads are
    /// on and that `parent` is a folder of this card.
    private func uploadFolder(_ parent: UInt32) throws -> String {
        guard uploads != nil, rootFD >= 0 else { throw CardError.readOnly }
        if parent == 0 { return "" }
        guard object(parent)?.isFolder == true, let path = path(of: parent) else { throw CardError.noSuchObject(parent) }
        return path
    }

    private func refuseExisting(_ name: String, in parent: UInt32) throws {
        let taken = (children(of: parent) ?? []).contains { object($0)?.name == name }
        if taken { throw CardError.exists(name) }
    }

    /// Checks a file announced by SendObjectInfo and reserves its handle: the name is sanitized and must
    /// be new in `parent`, the size within the policy and the filesystem's free space.
    public func reserveUpload(name raw: String, parent: UInt32, size: UInt64?) throws -> PendingUpload {
        let folderPath = try uploadFolder(parent)
        guard let policy = uploads else { throw CardError.readOnly }
        guard let name = Self.sanitizedName(raw) else { throw CardError.badName(raw) }
        try refuseExisting(name, in: parent)
        if let size, size > policy.maximumObjectSize { throw CardError.tooLarge(size, limit: policy.maximumObjectSize) }
        let free = CardFileSystem.capacity(rootFD).free
        let room = free > policy.reservedSpace ? free - policy.reservedSpace : 0
        if let size, size > room { throw CardError.full(needed: size, free: room) }
        let limit = min(size ?? policy.maximumObjectSize, policy.maximumObjectSize, room)
        return PendingUpload(
            handle: reserveHandle(), folderPath: folderPath, name: name, announcedSize: size, limit: limit)
    }

    /// Creates a folder (SendObjectInfo with the association format) and returns its handle.
    public func createFolder(name raw: String, parent: UInt32) throws -> UInt32 {
        let folderPath = try uploadFolder(parent)
        guard let name = Self.sanitizedName(raw) else { throw CardError.badName(raw) }
        try refuseExisting(name, in: parent)
        let path = folderPath.isEmpty ? name : folderPath + "/" + name
        let written = try withScanTurn {
            try CardFileSystem.makeNewDirectory(rootFD, path)
            return recordWritten(path: path, handle: reserveHandle(), isFolder: true, size: 0, modified: Date())
        }
        return announceWritten(written)
    }

    /// Where SendObject's bytes go: a hidden part file beside the destination, renamed only when whole.
    public func beginUpload(_ pending: PendingUpload) throws -> UploadSink {
        _ = try uploadFolder(0)
        return try UploadSink(card: self, pending: pending)
    }
}

/// Receives one uploaded file into a hidden `.NAME.upload-HANDLE` file in its folder (never listed, never
/// served), and on `commit` links it to its name (failing, not replacing, if the name appeared meanwhile).
/// `abort` (or a failed commit) removes the part file: a failed send leaves nothing behind.
public final class UploadSink: DataSink {
    let card: Card
    public let pending: PendingUpload
    private let folderFD: Int32
    private let partName: String
    private var fd: Int32
    public private(set) var received: UInt64 = 0

    init(card: Card, pending: PendingUpload) throws {
        self.card = card
        self.pending = pending
        folderFD = try CardFileSystem.openDirectory(card.rootFD, pending.folderPath)
        partName = ".\(pending.name).upload-\(pending.handle)"
        do {
            fd = try CardFileSystem.createFile(in: folderFD, partName)
        } catch {
            CardFileSystem.closeFile(folderFD)
            throw error
        }
    }

    deinit {
        abort()
        CardFileSystem.closeFile(folderFD)
    }

    public func begin(expectedLength: UInt64?) throws {
        if let expectedLength, expectedLength > pending.limit {
            throw CardError.tooLarge(expectedLength, limit: pending.limit)
        }
    }

    public func write(_ chunk: UnsafeRawBufferPointer) throws {
        guard fd >= 0 else { throw CardError.folder("upload of \(pending.name) already ended") }
        guard received + UInt64(chunk.count) <= pending.limit else {
            throw CardError.tooLarge(received + UInt64(chunk.count), limit: pending.limit)
        }
        try CardFileSystem.writeAll(fd, chunk, what: pending.path)
        received += UInt64(chunk.count)
    }

    /// Makes the file visible under its name and records it on the card; returns its handle.
    public func commit() throws -> UInt32 {
        if let announced = pending.announcedSize, announced != received {
            throw CardError.folder("\(pending.name): \(received) bytes received, \(announced) announced")
        }
        try CardFileSystem.syncAndClose(fd, what: pending.path)
        fd = -1
        let written = try card.withScanTurn {
            try CardFileSystem.linkNew(folderFD, from: partName, to: pending.name)
            CardFileSystem.unlink(folderFD, partName)
            return card.recordWritten(
                path: pending.path, handle: pending.handle, isFolder: false, size: received, modified: Date())
        }
        return card.announceWritten(written)
    }

    /// Drops the part file (a failed or cancelled send). Safe to call more than once.
    public func abort() {
        if fd >= 0 {
            CardFileSystem.closeFile(fd)
            fd = -1
        }
        CardFileSystem.unlink(folderFD, partName)
    }
}
