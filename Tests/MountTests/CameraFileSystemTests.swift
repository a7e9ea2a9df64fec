import Connectors
import Foundation
import MediaManager
import POSIX
import TestSupport
import Testing

@testable import Mount

/// The mount's file system called as the kernel would call it, over the in-process camera (the virtual
/// camera on its in-memory transport): no FUSE, no /dev/fuse, no process. Names, attributes, reads at any
/// offset, files written and sent on close, deletes and folders, and the errno of each refusal.
@Suite struct CameraFileSystemTests {
    /// A card folder served writable by the in-process camera, with `files` (path under the card: bytes).
    final class Mounted {
        let card: TemporaryFolder
        let spool: TemporaryFolder
        let session: MediaSession
        let fileSystem: CameraFileSystem
        let logged = Locked<[String]>([])

        init(_ files: [String: [UInt8]], writable: Bool = true, readOnlyMount: Bool = false) throws {
            card = try TemporaryFolder("msh-cfs-card")
            spool = try TemporaryFolder("msh-cfs-spool")
            for (path, bytes) in files { _ = try card.write(path, bytes) }
            var options = CameraConnector.Options()
            options.writableFolder = writable
            session = try MediaSession.open(.simulator(path: card.path), options: options)
            try session.catalog.ensureLoaded()
            let logged = logged
            fileSystem = CameraFileSystem(
                session: session, readOnly: readOnlyMount, mountPoint: "/mnt/test", spoolFolder: spool.path,
                log: { line in logged.withLock { $0.append(line) } })
        }

        deinit {
            fileSystem.finishReading()
            session.close()
        }

        /// The whole file read through the file system, `chunk` bytes a call, as `cat` would.
        func readAll(_ path: String, chunk: Int = 4096) throws -> [UInt8] {
            let handle = try fileSystem.open(path, writing: false, truncating: false)
            defer { fileSystem.release(handle) }
            var bytes: [UInt8] = []
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 1)
            defer { buffer.deallocate() }
            while true {
                let count = try fileSystem.read(handle, offset: UInt64(bytes.count), into: buffer)
                if count == 0 { return bytes }
                bytes += buffer[0..<count]
            }
        }

        /// `cp` of `bytes` to `path`: create, writes of `chunk` bytes, close (flush), release.
        func write(_ path: String, _ bytes: [UInt8], chunk: Int = 65536) throws {
            let handle = try fileSystem.create(path)
            var offset = 0
            while offset < bytes.count {
                let end = min(bytes.count, offset + chunk)
                let written = try Array(bytes[offset..<end]).withUnsafeBytes { buffer in
                    try fileSystem.write(handle, offset: UInt64(offset), from: buffer)
                }
                offset += written
            }
            try fileSystem.flush(handle)
            fileSystem.release(handle)
        }
    }

    static func bytes(_ count: Int, seed: UInt64) -> [UInt8] {
        var generator = SeededRandom(fixed: seed)
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    @Test func namesAndAttributesComeFromTheCatalog() throws {
        let photo = Self.bytes(300_000, seed: 1)
        let mounted = try Mounted(["DCIM/100TEST/A.JPG": photo, "DCIM/100TEST/B.MP4": Self.bytes(10, seed: 2)])
        let fs = mounted.fileSystem
        #expect(try fs.list("/").map(\.name).contains("DCIM"))
        let listed = try fs.list("/DCIM/100TEST")
        #expect(listed.map(\.name).sorted() == ["A.JPG", "B.MP4"])
        let a = try #require(listed.first { $0.name == "A.JPG" }?.attributes)
        #expect(!a.isFolder && a.size == 300_000 && a.writable)
        #expect(try fs.attributes(of: "/DCIM/100TEST/A.JPG") == a)
        #expect(try fs.attributes(of: "/DCIM").isFolder)
        #expect(throws: FileSystemError(ENOENT)) { try fs.attributes(of: "/DCIM/100TEST/C.JPG") }
        #expect(throws: FileSystemError(ENOENT)) { try fs.list("/NOPE") }
    }

    @Test func readsGiveTheCardsBytesAtEveryOffset() throws {
        let photo = Self.bytes(1_000_003, seed: 3)
        let mounted = try Mounted(["DCIM/100TEST/A.JPG": photo])
        // Sequential, in chunks that do not divide the size, so read-ahead grows and ends at the file's end.
        #expect(try mounted.readAll("/DCIM/100TEST/A.JPG", chunk: 131_071) == photo)
        // Random offsets, and past the end.
        let fs = mounted.fileSystem
        let handle = try fs.open("/DCIM/100TEST/A.JPG", writing: false, truncating: false)
        defer { fs.release(handle) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 5000, alignment: 1)
        defer { buffer.deallocate() }
        var generator = SeededRandom(fixed: 4)
        for _ in 0..<50 {
            let offset = Int.random(in: 0..<photo.count, using: &generator)
            let count = try fs.read(handle, offset: UInt64(offset), into: buffer)
            #expect(count == min(5000, photo.count - offset))
            #expect(Array(buffer[0..<count]) == Array(photo[offset..<(offset + count)]))
        }
        #expect(try fs.read(handle, offset: UInt64(photo.count), into: buffer) == 0)
        #expect(try fs.read(handle, offset: UInt64(photo.count) + 10, into: buffer) == 0)
        #expect(throws: FileSystemError(EBADF)) { try fs.read(999, offset: 0, into: buffer) }
    }

    @Test func aFileWrittenIsSentOnCloseAndListed() throws {
        let mounted = try Mounted(["DCIM/100TEST/A.JPG": Self.bytes(10, seed: 5)])
        let upload = Self.bytes(200_001, seed: 6)
        try mounted.write("/DCIM/100TEST/NEW.JPG", upload)
        // On the camera's card (its folder), and in the listing, with its size.
        #expect(mounted.card.read("DCIM/100TEST/NEW.JPG") == upload)
        #expect(try mounted.fileSystem.attributes(of: "/DCIM/100TEST/NEW.JPG").size == 200_001)
        #expect(try mounted.readAll("/DCIM/100TEST/NEW.JPG") == upload)
        #expect(mounted.logged.withLock { $0 }.contains("sent /DCIM/100TEST/NEW.JPG (200001 bytes)"))
        // A name taken, a folder that is not there.
        #expect(throws: FileSystemError(EEXIST)) { try mounted.fileSystem.create("/DCIM/100TEST/NEW.JPG") }
        #expect(throws: FileSystemError(ENOENT)) { try mounted.fileSystem.create("/DCIM/NOPE/X.JPG") }
    }

    @Test func aFileOnTheCardIsNeverChangedInPlace() throws {
        let mounted = try Mounted(["DCIM/100TEST/A.JPG": Self.bytes(10, seed: 7)])
        let fs = mounted.fileSystem
        #expect(throws: FileSystemError(EPERM)) { try fs.open("/DCIM/100TEST/A.JPG", writing: true, truncating: false) }
        #expect(throws: FileSystemError(EPERM)) { try fs.truncate("/DCIM/100TEST/A.JPG", size: 0, handle: nil) }
        #expect(throws: FileSystemError(EISDIR)) { try fs.open("/DCIM", writing: false, truncating: false) }
        #expect(mounted.card.read("DCIM/100TEST/A.JPG") == Self.bytes(10, seed: 7))
    }

    @Test func deletesAndFoldersGoToTheCamera() throws {
        let mounted = try Mounted(["DCIM/100TEST/A.JPG": Self.bytes(10, seed: 8)])
        let fs = mounted.fileSystem
        try fs.unlink("/DCIM/100TEST/A.JPG")
        #expect(!FileManager.default.fileExists(atPath: mounted.card.path("DCIM/100TEST/A.JPG")))
        #expect(throws: FileSystemError(ENOENT)) { try fs.unlink("/DCIM/100TEST/A.JPG") }
        try fs.makeFolder("/DCIM/101TEST")
        #expect(LocalDisk.isDirectory(mounted.card.path("DCIM/101TEST")))
        #expect(throws: FileSystemError(EEXIST)) { try fs.makeFolder("/DCIM/101TEST") }
        try mounted.write("/DCIM/101TEST/X.JPG", [1, 2, 3])
        #expect(throws: FileSystemError(ENOTEMPTY)) { try fs.removeFolder("/DCIM/101TEST") }
        try fs.unlink("/DCIM/101TEST/X.JPG")
        try fs.removeFolder("/DCIM/101TEST")
        #expect(!FileManager.default.fileExists(atPath: mounted.card.path("DCIM/101TEST")))
        try mounted.write("/DCIM/100TEST/K.JPG", [4])
        #expect(throws: FileSystemError(ENOTDIR)) { try fs.removeFolder("/DCIM/100TEST/K.JPG") }
        #expect(throws: FileSystemError(EISDIR)) { try fs.unlink("/DCIM/100TEST") }
    }

    @Test func aReadOnlyMountOrCardRefusesEveryChange() throws {
        let mounted = try Mounted(["DCIM/100TEST/A.JPG": Self.bytes(10, seed: 9)], readOnlyMount: true)
        let fs = mounted.fileSystem
        #expect(!fs.changesAllowed && fs.accessWords == "read-only")
        #expect(throws: FileSystemError(EROFS)) { try fs.create("/DCIM/100TEST/N.JPG") }
        #expect(throws: FileSystemError(EROFS)) { try fs.unlink("/DCIM/100TEST/A.JPG") }
        #expect(throws: FileSystemError(EROFS)) { try fs.makeFolder("/DCIM/X") }
        #expect(throws: FileSystemError(EROFS)) { try fs.open("/DCIM/100TEST/A.JPG", writing: true, truncating: false) }
        #expect(try mounted.readAll("/DCIM/100TEST/A.JPG") == Self.bytes(10, seed: 9))

        // A card the camera serves read-only: the camera takes no changes at all.
        let card = try Mounted(["DCIM/100TEST/A.JPG": Self.bytes(10, seed: 10)], writable: false)
        #expect(!card.fileSystem.changesAllowed)
        #expect(throws: FileSystemError(EPERM)) { try card.fileSystem.create("/DCIM/100TEST/N.JPG") }
        #expect(FileManager.default.fileExists(atPath: card.card.path("DCIM/100TEST/A.JPG")))
    }

    @Test func theCardsSpaceIsTheStoresOwn() throws {
        let mounted = try Mounted(["DCIM/100TEST/A.JPG": Self.bytes(10, seed: 11)])
        let space = mounted.fileSystem.space()
        #expect(space.capacity > 0 && space.free <= space.capacity)
    }
}
