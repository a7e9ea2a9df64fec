import Foundation
import PTP
import TestSupport
import Testing
@testable import VirtualCamera

/// Uploads to a writable card (SendObjectInfo, SendObject, folders), and everything refused.
@Suite struct UploadTests {
    static func fileInfo(_ name: String, size: Int, format: ObjectFormatCode = .exifJPEG) -> ObjectInfo {
        var info = ObjectInfo()
        info.format = format
        info.filename = name
        info.compressedSize = UInt32(size)
        return info
    }

    static func folderInfo(_ name: String) -> ObjectInfo {
        var info = ObjectInfo()
        info.format = .association
        info.associationType = 1
        info.filename = name
        return info
    }

    @Test func aSentFileLandsInItsFolderWithTheHandlePromisedAndAnEvent() throws {
        let h = try Harness(files: ["DCIM/100MEDIA/A.JPG": pattern(5)], uploads: UploadPolicy())
        defer { #expect(h.finish()) }
        #expect(h.session.supports(.sendObjectInfo) && h.session.supports(.sendObject))
        let folder = try #require(try h.handle(of: "DCIM/100MEDIA"))
        let bytes = pattern(300_000)
        let handle = try h.session.sendObjectInfo(Self.fileInfo("NEW.JPG", size: bytes.count), storage: 0x0001_0001, parent: folder)
        try h.session.sendObject(BufferSource(bytes))
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: h.path("DCIM/100MEDIA/NEW.JPG")))) == bytes)
        #expect(try h.session.getObjectInfo(handle).filename == "NEW.JPG")
        #expect(try h.session.getObjectHandles(storage: 0xFFFF_FFFF, parent: folder).contains(handle))
        let events = h.events.wait { $0.contains(PTPEvent(.objectAdded, parameters: [handle])) }
        #expect(events.contains(PTPEvent(.objectAdded, parameters: [handle])))
        // Nothing else is left in the folder (no part file).
        #expect(try FileManager.default.contentsOfDirectory(atPath: h.path("DCIM/100MEDIA")).sorted() == ["A.JPG", "NEW.JPG"])
    }

    @Test func foldersAreCreatedAndDeletedWithTheirContents() throws {
        let h = try Harness(files: ["DCIM/100MEDIA/A.JPG": pattern(5)], uploads: UploadPolicy())
        defer { #expect(h.finish()) }
        let dcim = try #require(try h.handle(of: "DCIM"))
        let made = try h.session.sendObjectInfo(Self.folderInfo("200TRIP"), storage: 0x0001_0001, parent: dcim)
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: h.path("DCIM/200TRIP"), isDirectory: &isDirectory) && isDirectory.boolValue)
        #expect(try h.session.getObjectInfo(made).isFolder)
        _ = try h.session.sendObjectInfo(Self.fileInfo("X.JPG", size: 3), storage: 0x0001_0001, parent: made)
        try h.session.sendObject(BufferSource([1, 2, 3]))
        try h.session.deleteObject(made)
        #expect(!FileManager.default.fileExists(atPath: h.path("DCIM/200TRIP")))
        // The same name twice is refused, never replaced.
        expectResponse(.accessDenied, to: .sendObjectInfo) {
            try h.session.sendObjectInfo(Self.folderInfo("100MEDIA"), storage: 0x0001_0001, parent: dcim)
        }
    }

    @Test func hostileNamesAreSanitizedAndNothingLeavesTheFolder() throws {
        let h = try Harness(uploads: UploadPolicy())
        defer { #expect(h.finish()) }
        for name in ["../../escape.JPG", "/etc/passwd", "a\u{1B}[31mb\u{7}.JPG", ".hidden"] {
            _ = try h.session.sendObjectInfo(Self.fileInfo(name, size: 1), storage: 0x0001_0001, parent: 0xFFFF_FFFF)
            try h.session.sendObject(BufferSource([7]))
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: h.folder.path).sorted()
        #expect(names == ["_._.._escape.JPG", "_etc_passwd", "_hidden", "a[31mb.JPG"])
        #expect(Card.sanitizedName("a\u{0}b\u{9B}c\\d") == "abc_d")
        for bad in ["", "..", "\u{1}\u{2}"] {
            expectResponse(.invalidDataset, to: .sendObjectInfo) {
                try h.session.sendObjectInfo(Self.fileInfo(bad, size: 1), storage: 0x0001_0001, parent: 0xFFFF_FFFF)
            }
        }
        #expect(Card.sanitizedName(String(repeating: "x", count: 256)) == nil)
    }

    @Test func aSymlinkedFolderIsNeverWrittenThrough() throws {
        let outside = FileManager.default.temporaryDirectory.appendingPathComponent("outside-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: outside) }
        let h = try Harness(files: ["DCIM/A.JPG": [1]], uploads: UploadPolicy())
        defer { #expect(h.finish()) }
        try FileManager.default.createSymbolicLink(atPath: h.path("DCIM/LINK"), withDestinationPath: outside.path)
        // The link is not served, so there is no handle to upload into; a guessed handle is refused.
        #expect(try h.handle(of: "DCIM/LINK") == nil)
        #expect(throws: PTPError.self) {
            try h.session.sendObjectInfo(Self.fileInfo("X.JPG", size: 1), storage: 0x0001_0001, parent: 999)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path).isEmpty)
    }

    @Test func tooLargeOrUnannouncedOrNotWritableIsRefusedAndLeavesNothing() throws {
        let h = try Harness(uploads: UploadPolicy(maximumObjectSize: 1000))
        defer { #expect(h.finish()) }
        expectResponse(.objectTooLarge, to: .sendObjectInfo) {
            try h.session.sendObjectInfo(Self.fileInfo("BIG.JPG", size: 1001), storage: 0x0001_0001, parent: 0xFFFF_FFFF)
        }
        // Announced small, sent big: the send fails and the part file is gone.
        _ = try h.session.sendObjectInfo(Self.fileInfo("LIE.JPG", size: 10), storage: 0x0001_0001, parent: 0xFFFF_FFFF)
        #expect(throws: PTPError.self) { try h.session.sendObject(BufferSource(pattern(2000))) }
        // SendObject with no SendObjectInfo before it.
        expectResponse(.noValidObjectInfo, to: .sendObject) {
            try h.session.sendObject(BufferSource([1]))
        }
        // Announced 10, sent 5: not a whole file.
        _ = try h.session.sendObjectInfo(Self.fileInfo("SHORT.JPG", size: 10), storage: 0x0001_0001, parent: 0xFFFF_FFFF)
        #expect(throws: PTPError.self) { try h.session.sendObject(BufferSource([1, 2, 3, 4, 5])) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: h.folder.path).isEmpty)
        // More than the free space (reserved space larger than any disk).
        let full = try Harness(uploads: UploadPolicy(reservedSpace: .max))
        defer { #expect(full.finish()) }
        expectResponse(.storeFull, to: .sendObjectInfo) {
            try full.session.sendObjectInfo(Self.fileInfo("A.JPG", size: 1), storage: 0x0001_0001, parent: 0xFFFF_FFFF)
        }
    }

    @Test func aCardWithoutUploadsDoesNotOfferThemAndRefusesThem() throws {
        let h = try Harness(files: ["DCIM/100MEDIA/A.JPG": [1]])
        defer { #expect(h.finish()) }
        #expect(!h.session.supports(.sendObjectInfo) && !h.session.supports(.sendObject))
        #expect(!h.session.supports(.initiateCapture), "a folder without a capture image cannot capture")
        expectResponse(.operationNotSupported, to: .sendObjectInfo) {
            try h.session.sendObjectInfo(Self.fileInfo("A2.JPG", size: 1), storage: 0x0001_0001, parent: 0xFFFF_FFFF)
        }
        expectResponse(.operationNotSupported, to: .sendObject) {
            try h.session.sendObject(BufferSource([1]))
        }
        let folder = try #require(try h.handle(of: "DCIM/100MEDIA"))
        expectResponse(.objectWriteProtected, to: .deleteObject) { try h.session.deleteObject(folder) }
        #expect(FileManager.default.fileExists(atPath: h.path("DCIM/100MEDIA/A.JPG")))
    }
}
