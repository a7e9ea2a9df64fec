import Foundation
import PTP
import TestSupport
import Testing
@testable import VirtualCamera

@Suite struct VirtualCameraTests {
    @Test func listsTheFolderTreeAsAssociations() throws {
        let h = try Harness(files: [
            "DCIM/100MEDIA/DJI_0001.JPG": pattern(1000),
            "DCIM/100MEDIA/DJI_0002.MP4": pattern(3000),
            "MISC/notes.txt": pattern(10),
        ])
        defer { #expect(h.finish()) }
        let info = h.session.deviceInfo
        #expect(info.model == "Virtual Camera")
        #expect(info.supports(.getObjectPropList))
        let storages = try h.session.getStorageIDs()
        #expect(storages == [0x0001_0001])
        #expect(try h.session.getStorageInfo(storages[0]).volumeLabel.hasPrefix("vcam-"))

        let roots = try h.session.getObjectHandles(storage: 0xFFFF_FFFF, parent: 0xFFFF_FFFF)
        let rootInfos = try roots.map { try h.session.getObjectInfo($0) }
        #expect(rootInfos.map(\.filename) == ["DCIM", "MISC"])
        #expect(rootInfos.allSatisfy { $0.format == .association && $0.associationType == 1 && $0.parentObject == 0 })

        let all = try h.session.getObjectHandles(storage: 0xFFFF_FFFF, parent: 0)
        #expect(all.count == 6)
        let jpeg = try #require(try h.handle(of: "DCIM/100MEDIA/DJI_0001.JPG"))
        let jpegInfo = try h.session.getObjectInfo(jpeg)
        #expect(jpegInfo.format == .exifJPEG)
        #expect(jpegInfo.compressedSize == 1000)
        #expect(PTPDateTime.parse(jpegInfo.captureDate) != nil)
        let mp4 = try #require(try h.handle(of: "DCIM/100MEDIA/DJI_0002.MP4"))
        #expect(try h.session.getObjectInfo(mp4).format == .mp4Container)
        // Format filter
        let jpegs = try h.session.getObjectHandles(storage: 0xFFFF_FFFF, format: .exifJPEG, parent: 0)
        #expect(jpegs == [jpeg])
    }

    @Test func getObjectAndPartialObjectAreByteIdentical() throws {
        let bytes = pattern(1_000_003)
        let h = try Harness(files: ["DCIM/100MEDIA/CLIP.MOV": bytes])
        defer { #expect(h.finish()) }
        let handle = try #require(try h.handle(of: "DCIM/100MEDIA/CLIP.MOV"))
        let whole = Collector()
        try h.session.getObject(handle, into: whole)
        #expect(whole.bytes == bytes)
        let part = Collector()
        let sent = try h.session.getPartialObject(handle, offset: 999_000, count: 100_000, into: part)
        #expect(sent == 1003)
        #expect(part.bytes == Array(bytes[999_000...]))
        // Past the end: a clear error, and the session goes on.
        expectResponse(.invalidParameter, to: .getPartialObject) {
            try h.session.getPartialObject(handle, offset: 2_000_000, count: 10, into: Collector())
        }
        #expect(try h.session.getStorageIDs().count == 1)
    }

    @Test func largeGeneratedObjectIsReadPastFourGiBWithTheSixtyFourBitOperation() throws {
        let size: UInt64 = (5 << 30) + 17
        let h = try Harness { card in card.add(name: "BIG.MP4", in: "DCIM/100MEDIA", content: .generated(length: size)) }
        defer { #expect(h.finish()) }
        let handle = try #require(try h.handle(of: "DCIM/100MEDIA/BIG.MP4"))
        #expect(try h.session.getObjectInfo(handle).compressedSize == 0xFFFF_FFFF)
        let list = try h.session.getObjectPropList(handle: handle, property: UInt32(ObjectPropertyCode.objectSize.rawValue))
        #expect(list.elements.first?.value == .uint64(size))
        let tail = Collector()
        let offset = size - 100
        try h.session.getPartialObject(handle, offset: offset, count: 1000, into: tail)
        #expect(tail.bytes == (0..<100).map { generatedByte(at: offset + UInt64($0)) })
    }

    @Test func objectPropListListsAFolderInOneRequest() throws {
        let h = try Harness(files: [
            "DCIM/100MEDIA/A.JPG": pattern(5), "DCIM/100MEDIA/B.JPG": pattern(6), "DCIM/100MEDIA/C.MP4": pattern(7),
        ])
        defer { #expect(h.finish()) }
        let folder = try #require(try h.handle(of: "DCIM/100MEDIA"))
        let list = try h.session.getObjectPropList(handle: folder, depth: 1)
        let objects = list.byObject()
        #expect(objects.count == 3)
        #expect(objects.map { $0.properties[.objectFileName]?.stringValue } == ["A.JPG", "B.JPG", "C.MP4"])
        #expect(objects.map { $0.properties[.objectSize]?.unsignedValue } == [5, 6, 7])
        #expect(objects.allSatisfy { $0.properties[.parentObject]?.unsignedValue == UInt64(folder) })
        let everything = try h.session.getObjectPropList(handle: 0xFFFF_FFFF, property: UInt32(ObjectPropertyCode.objectFileName.rawValue))
        #expect(everything.elements.count == 5)
        expectResponse(.specificationByDepthUnsupported, to: .getObjectPropList) {
            try h.session.getObjectPropList(handle: folder, depth: 2)
        }
    }

    @Test func deleteRemovesTheFileAndSendsAnEvent() throws {
        let h = try Harness(files: ["DCIM/100MEDIA/A.JPG": pattern(5), "DCIM/100MEDIA/B.JPG": pattern(6)])
        defer { #expect(h.finish()) }
        let a = try #require(try h.handle(of: "DCIM/100MEDIA/A.JPG"))
        try h.session.deleteObject(a)
        #expect(!FileManager.default.fileExists(atPath: h.path("DCIM/100MEDIA/A.JPG")))
        #expect(FileManager.default.fileExists(atPath: h.path("DCIM/100MEDIA/B.JPG")))
        let events = h.events.wait { $0.contains { $0.code == .objectRemoved } }
        #expect(events.contains(PTPEvent(.objectRemoved, parameters: [a])))
        expectResponse(.invalidObjectHandle, to: .getObjectInfo) { try h.session.getObjectInfo(a) }
        expectResponse(.invalidObjectHandle, to: .deleteObject) { try h.session.deleteObject(a) }
    }

    @Test func readOnlyCardRefusesDeletesAndCaptures() throws {
        let h = try Harness(files: ["DCIM/100MEDIA/A.JPG": pattern(5)], readOnly: true) { $0.captureImage = pattern(9) }
        defer { #expect(h.finish()) }
        // A read-only card cannot take a picture, so it does not offer capture at all.
        #expect(!h.session.supports(.initiateCapture))
        expectResponse(.operationNotSupported, to: .initiateCapture) { try h.session.initiateCapture() }
        let a = try #require(try h.handle(of: "DCIM/100MEDIA/A.JPG"))
        expectResponse(.objectWriteProtected, to: .deleteObject) { try h.session.deleteObject(a) }
        #expect(FileManager.default.fileExists(atPath: h.path("DCIM/100MEDIA/A.JPG")))
    }

    @Test func captureWritesANewFileAndSendsObjectAddedThenCaptureComplete() throws {
        // Named as the camera names its shots, after its own highest number, not after another's files.
        let files = ["DCIM/100MEDIA/IMG_0006.JPG": pattern(5), "DCIM/100MEDIA/BIG_0009.BIN": pattern(3)]
        let h = try Harness(files: files) { $0.captureImage = pattern(777) }
        defer { #expect(h.finish()) }
        try h.session.initiateCapture()
        let events = h.events.wait { $0.contains { $0.code == .captureComplete } }
        let codes = events.map(\.code)
        let added = try #require(codes.firstIndex(of: .objectAdded))
        let complete = try #require(codes.firstIndex(of: .captureComplete))
        #expect(added < complete)
        let newHandle = events[added].parameter(0)
        #expect(try h.session.getObjectInfo(newHandle).filename == "IMG_0007.JPG")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: h.path("DCIM/100MEDIA/IMG_0007.JPG")))
        #expect(Array(bytes) == pattern(777))
    }

    @Test func filesCopiedOntoTheFolderAppearOnTheNextListingWithAnEvent() throws {
        let h = try Harness(files: ["DCIM/100MEDIA/A.JPG": pattern(5)])
        defer { #expect(h.finish()) }
        try Data(pattern(9)).write(to: URL(fileURLWithPath: h.path("DCIM/100MEDIA/NEW.JPG")))
        let all = try h.session.getObjectHandles(storage: 0xFFFF_FFFF, parent: 0)
        #expect(all.count == 4)
        let events = h.events.wait { $0.contains { $0.code == .objectAdded } }
        #expect(events.contains { $0.code == .objectAdded })
    }

    @Test func foldersRemovedOrAddedOnDiskAreSeenByTheNextListing() throws {
        let h = try Harness(files: ["DCIM/100MEDIA/A.JPG": pattern(5), "DCIM/101MEDIA/B.JPG": pattern(6)])
        defer { #expect(h.finish()) }
        #expect(try h.session.getObjectHandles(storage: 0xFFFF_FFFF, parent: 0).count == 5)
        try FileManager.default.removeItem(atPath: h.path("DCIM/101MEDIA"))
        try FileManager.default.createDirectory(atPath: h.path("DCIM/102MEDIA/SUB"), withIntermediateDirectories: true)
        try Data(pattern(3)).write(to: URL(fileURLWithPath: h.path("DCIM/102MEDIA/SUB/C.JPG")))
        let names = try h.session.getObjectHandles(storage: 0xFFFF_FFFF, parent: 0).map { try h.session.getObjectInfo($0).filename }
        #expect(Set(names) == ["DCIM", "100MEDIA", "A.JPG", "102MEDIA", "SUB", "C.JPG"])
        // A file that grows in place keeps its folder's time: the full refresh (the watcher's) sees it.
        let a = try #require(try h.handle(of: "DCIM/100MEDIA/A.JPG"))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: h.path("DCIM/100MEDIA/A.JPG")))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(pattern(10)))
        try handle.close()
        h.card.refresh(full: true)
        #expect(try h.session.getObjectInfo(a).compressedSize == 15)
    }

    @Test func symlinksAndPathsOutsideTheRootAreNeverServed() throws {
        let outside = FileManager.default.temporaryDirectory.appendingPathComponent("secret-\(UUID().uuidString)")
        try Data("secret".utf8).write(to: outside)
        defer { try? FileManager.default.removeItem(at: outside) }
        let h = try Harness(files: ["DCIM/100MEDIA/A.JPG": pattern(5)])
        defer { #expect(h.finish()) }
        try FileManager.default.createSymbolicLink(atPath: h.path("DCIM/100MEDIA/LINK.JPG"), withDestinationPath: outside.path)
        try FileManager.default.createSymbolicLink(atPath: h.path("DCIM/UP"), withDestinationPath: "..")
        let names = try h.session.getObjectHandles(storage: 0xFFFF_FFFF, parent: 0).map { try h.session.getObjectInfo($0).filename }
        #expect(!names.contains("LINK.JPG"))
        #expect(!names.contains("UP"))
        // A file replaced by a symlink after it was listed is refused when read.
        let a = try #require(try h.handle(of: "DCIM/100MEDIA/A.JPG"))
        try FileManager.default.removeItem(atPath: h.path("DCIM/100MEDIA/A.JPG"))
        try FileManager.default.createSymbolicLink(atPath: h.path("DCIM/100MEDIA/A.JPG"), withDestinationPath: outside.path)
        #expect(throws: PTPError.self) { try h.session.getObject(a, into: Collector()) }
        #expect(throws: CardError.outsideRoot("../x")) { try CardFileSystem.openBeneath(0, "../x", flags: 0) }
    }

    @Test func commandsBeforeOpenSessionAndUnknownOperationsGetErrorResponses() throws {
        let card = Card(inMemoryLabel: "test")
        let camera = VirtualCamera(card: card)
        let (initiator, responder) = InMemoryTransport.makePair(timeout: 5)
        let done = Mailbox<Void>()
        Thread { camera.serve(responder); done.put(()) }.start()
        let send = { (code: UInt16, params: [UInt32], id: UInt32) in
            try initiator.transact(PTPCommand(OperationCode(code), transactionID: id, parameters: params), dataOut: nil, dataIn: Collector())
        }
        #expect(try send(0x1004, [], 1).code == .sessionNotOpen)
        #expect(try send(0x1001, [], 0).code == .ok)
        #expect(try send(0x1002, [0], 0).code == .invalidParameter)
        #expect(try send(0x1002, [1], 0).code == .ok)
        #expect(try send(0x1002, [1], 1).code == .sessionAlreadyOpen)
        #expect(try send(0x9999, [], 2).code == .operationNotSupported)
        #expect(try send(0x1008, [12345], 3).code == .invalidObjectHandle)
        #expect(try send(0x1005, [0x0002_0001], 4).code == .invalidStorageID)
        #expect(try send(0x1007, [0xFFFF_FFFF, 0, 777], 5).code == .invalidParentObject)
        #expect(try send(0x100A, [12345], 6).code == .invalidObjectHandle)
        // A host-to-device data phase the camera does not want is consumed, then refused.
        let response = try initiator.transact(
            PTPCommand(.sendObjectInfo, transactionID: 7), dataOut: BufferSource(pattern(100)), dataIn: nil)
        #expect(response.code == .operationNotSupported)
        #expect(try send(0x1004, [], 8).code == .ok)
        initiator.close()
        #expect(done.take(timeout: 10) != nil)
    }
}

/// The identity a folder's card gets as its serial number.
@Suite struct CardIdentityTests {
    @Test func theSameFolderIsTheSameCardAndOthersAreNot() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("msh-cardid-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        for name in ["a/CARD", "b/CARD"] {
            try FileManager.default.createDirectory(atPath: root + "/" + name, withIntermediateDirectories: true)
        }
        try FileManager.default.createSymbolicLink(atPath: root + "/link", withDestinationPath: root + "/a/CARD")
        let a = CardIdentity.serialNumber(forFolder: root + "/a/CARD", prefix: "DIR")
        #expect(a.range(of: #"^DIR-[0-9a-f]{12}$"#, options: .regularExpression) != nil, "\(a)")
        #expect(CardIdentity.serialNumber(forFolder: root + "/b/CARD", prefix: "DIR") != a)
        #expect(CardIdentity.serialNumber(forFolder: root + "/link", prefix: "DIR") == a)
        #expect(CardIdentity.serialNumber(forFolder: root + "/a/./CARD/", prefix: "DIR") == a)
        // Without a UUID for the filesystem the key is the real path; with one, the place inside it.
        let key = CardIdentity.key(forFolder: root + "/link", uuidsFolder: root + "/no-such-folder")
        #expect(key == "path:" + URL(fileURLWithPath: root + "/a/CARD").resolvingSymlinksInPath().path)
        #expect(CardIdentity.hash("") == 0xCBF2_9CE4_8422_2325, "FNV-1a's offset basis: the same on every run")
    }

    @Test func aVolumeUUIDNamesTheCardWhereverItIsMounted() throws {
        // Where this machine's /dev/disk/by-uuid names the filesystem of the temporary folder, the key is
        // that UUID and the place inside the filesystem, never the mount point.
        let folder = FileManager.default.temporaryDirectory.path
        let key = CardIdentity.key(forFolder: folder)
        if key.hasPrefix("volume:") {
            #expect(key.split(separator: "/").count >= 1)
            #expect(!key.hasPrefix("volume:/"), "\(key)")
        } else {
            #expect(key.hasPrefix("path:/"), "\(key)")
        }
    }
}

/// A card folder (`dir:`) has no battery, clock, exposure or work mode: its DeviceInfo lists no device
/// property nor their operations, and a request for one is refused rather than answered with a made-up
/// value (issue 41, item 4). The virtual camera keeps its simulated settings.
@Suite struct CardFolderSettingsTests {
    @Test func aCardFolderListsAndAnswersNoSettings() throws {
        let harness = try Harness(files: ["DCIM/100MEDIA/A.JPG": pattern(100)], identity: .cardFolder("/media/card"))
        defer { _ = harness.finish() }
        let info = try harness.session.getDeviceInfo()
        #expect(info.devicePropertiesSupported.isEmpty)
        #expect(info.deviceVersion.isEmpty, "a folder has no firmware")
        for operation in [OperationCode.getDevicePropDesc, .getDevicePropValue, .setDevicePropValue] {
            #expect(!info.operationsSupported.contains(operation), "\(operation)")
        }
        for operation in [OperationCode.getDevicePropDesc, .getDevicePropValue] {
            do {
                let answer = try harness.session.request(operation, [UInt32(DevicePropertyCode.batteryLevel.rawValue)])
                Issue.record("\(operation) answered \(answer)")
            } catch PTPError.response(let code, _, _) {
                #expect(code == .operationNotSupported, "\(operation)")
            }
        }
    }

    @Test func theVirtualCameraHasItsSettings() throws {
        let harness = try Harness(files: ["DCIM/100MEDIA/A.JPG": pattern(100)])
        defer { _ = harness.finish() }
        let info = try harness.session.getDeviceInfo()
        #expect(info.devicePropertiesSupported.contains(.batteryLevel))
        #expect(try harness.session.request(.getDevicePropValue, [UInt32(DevicePropertyCode.batteryLevel.rawValue)]) == [87])
    }
}
