import Foundation
import PTP
import Testing
@testable import VirtualCamera

/// A raw initiator connection to a quirky virtual camera: commands with chosen transaction ids.
final class RawConnection: @unchecked Sendable {
    let initiator: InMemoryInitiator
    let responder: InMemoryResponder
    let events = EventRecorder()
    private var next: UInt32 = 0

    init(_ camera: VirtualCamera) {
        (initiator, responder) = InMemoryTransport.makePair(chunkSize: 64 << 10, timeout: 2)
        let responder = self.responder
        Thread { camera.serve(responder) }.start()
        let events = self.events
        initiator.setEventHandler { events.record($0) }
    }

    /// Runs one transaction numbered `id` (default: one past the last); returns the response and data.
    @discardableResult
    func run(_ code: OperationCode, _ parameters: [UInt32] = [], id: UInt32? = nil) throws -> (ResponseCode, [UInt8]) {
        let transaction = id ?? next
        next = transaction &+ 1
        let sink = Collector()
        let response = try initiator.transact(
            PTPCommand(code, transactionID: transaction, parameters: parameters), dataOut: nil, dataIn: sink)
        return (response.code, sink.bytes)
    }

    /// OpenSession (id 0) then numbered commands, as libgphoto2 connects.
    func open() throws {
        #expect(try run(.openSession, [1], id: 0).0 == .ok)
    }

    func handles(storage: UInt32 = 0x0001_0001, parent: UInt32) throws -> [UInt32] {
        let (code, bytes) = try run(.getObjectHandles, [storage, 0, parent])
        guard code == .ok else { throw PTPError.response(code, operation: .getObjectHandles, transaction: nil) }
        var r = PTPReader(bytes)
        return try r.uint32Array()
    }

    func info(_ handle: UInt32) throws -> ObjectInfo {
        let (code, bytes) = try run(.getObjectInfo, [handle])
        guard code == .ok else { throw PTPError.response(code, operation: .getObjectInfo, transaction: nil) }
        return try ObjectInfo(decoding: bytes)
    }

    func handle(named path: String) throws -> UInt32 {
        var parent: UInt32 = 0xFFFF_FFFF
        for component in path.split(separator: "/") {
            parent = try #require(try handles(parent: parent).first { try info($0).filename == component })
        }
        return parent
    }

    func close() { initiator.close() }
}

/// A virtual camera with `quirks` over a fresh card folder holding `files`; the caller removes the folder (`defer`).
func quirkyCamera(_ quirks: Quirks, files: [String: [UInt8]] = [:]) throws -> (VirtualCamera, URL) {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quirk-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    for (path, bytes) in files {
        let url = folder.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
    }
    let card = try Card(folder: folder.path)
    return (VirtualCamera(card: card, quirks: quirks), folder)
}

let threeFiles: [String: [UInt8]] = [
    "DCIM/100MEDIA/A.JPG": pattern(100, seed: 1), "DCIM/100MEDIA/B.JPG": pattern(200, seed: 2),
    "DCIM/100MEDIA/C.MP4": pattern(300, seed: 3), "DCIM/100MEDIA/D.JPG": pattern(400, seed: 4),
]

@Suite struct QuirkTests {
    @Test func namesParseWithPresetsAndUnknownNamesAreRefused() throws {
        let quirks = try Quirks(parsing: "no-thumbs, umtp")
        #expect(quirks.contains(.noThumbs) && quirks.contains(.proplistListsSelf) && quirks.contains(.stickySession))
        #expect(throws: QuirkError(unknown: "bogus")) { try Quirks(parsing: "no-partial,bogus") }
        for quirk in Quirk.allCases { #expect(Quirks.help.contains(quirk.rawValue + " ")) }
    }

    @Test func deviceInfoListsOnlyWhatTheQuirkyCameraAnswers() throws {
        let (camera, folder) = try quirkyCamera([.noThumbs, .noPartial, .noProplist])
        defer { try? FileManager.default.removeItem(at: folder) }
        let connection = RawConnection(camera)
        defer { connection.close() }
        let info = try DeviceInfo(decoding: try connection.run(.getDeviceInfo, id: 0).1)
        for gone in [OperationCode.getThumb, .getPartialObject, .getPartialObject64, .getObjectPropList, .getObjectPropValue] {
            #expect(!info.supports(gone))
        }
        #expect(info.supports(.getObject) && info.supports(.getObjectInfo))
        try connection.open()
        #expect(try connection.run(.getThumb, [1]).0 == .operationNotSupported)
        #expect(try connection.run(.getPartialObject, [1, 0, 10]).0 == .operationNotSupported)
    }

    @Test func okUnknownOpsAnswersOKWithNoData() throws {
        let (camera, folder) = try quirkyCamera([.noProplist, .okUnknownOps], files: threeFiles)
        defer { try? FileManager.default.removeItem(at: folder) }
        let connection = RawConnection(camera)
        defer { connection.close() }
        try connection.open()
        let (code, data) = try connection.run(.getObjectPropList, [0, 0, 0xFFFF_FFFF, 0, 1])
        #expect(code == .ok && data.isEmpty)
    }

    @Test func strictTransactionsRefuseTheOrderThatSendsDeviceInfoFirst() throws {
        let (camera, folder) = try quirkyCamera([.strictTransactions])
        defer { try? FileManager.default.removeItem(at: folder) }
        let old = RawConnection(camera)
        #expect(try old.run(.getDeviceInfo, id: 0).0 == .ok)
        #expect(try old.run(.openSession, [1], id: 0).0 == .ok)
        #expect(try old.run(.getStorageIDs, id: 1).0 == .generalError)
        old.close()
        let gphoto = RawConnection(camera)
        defer { gphoto.close() }
        #expect(try gphoto.run(.openSession, [1], id: 0).0 == .ok)
        #expect(try gphoto.run(.getDeviceInfo, id: 1).0 == .ok)
        #expect(try gphoto.run(.getStorageIDs, id: 2).0 == .ok)
    }

    @Test func deviceInfoOutsideASessionAndAStickySession() throws {
        let (camera, folder) = try quirkyCamera([.noDeviceInfoOutsideSession, .stickySession])
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = RawConnection(camera)
        #expect(try first.run(.getDeviceInfo, id: 0).0 == .sessionNotOpen)
        try first.open()
        #expect(try first.run(.getDeviceInfo).0 == .ok)
        first.close()  // without CloseSession
        let second = RawConnection(camera)
        #expect(try second.run(.openSession, [2], id: 0).0 == .sessionAlreadyOpen)
        #expect(try second.run(.getStorageIDs).0 == .ok)
        #expect(try second.run(.closeSession).0 == .ok)
        second.close()
        let third = RawConnection(camera)
        defer { third.close() }
        #expect(try third.run(.openSession, [3], id: 0).0 == .ok)
    }

    @Test func lazyHandlesExistOnlyOnceTheirFolderWasScanned() throws {
        let (camera, folder) = try quirkyCamera([.lazyHandles], files: threeFiles)
        defer { try? FileManager.default.removeItem(at: folder) }
        let connection = RawConnection(camera)
        defer { connection.close() }
        try connection.open()
        let dcim = try #require(try connection.handles(parent: 0xFFFF_FFFF).first)
        let media = try #require(camera.card.handle(forPath: "DCIM/100MEDIA"))
        let file = try #require(camera.card.handle(forPath: "DCIM/100MEDIA/A.JPG"))
        #expect(try connection.run(.getObjectInfo, [file]).0 == .invalidObjectHandle)
        #expect(try connection.run(.getObjectPropList, [media, 0, 0xFFFF_FFFF, 0, 1]).0 == .invalidObjectHandle)
        #expect(try connection.handles(parent: dcim) == [media])
        #expect(try connection.handles(parent: media).contains(file))
        #expect(try connection.info(file).filename == "A.JPG")
    }

    @Test func propListQuirksAnswerTheFolderItselfOrTheWholeSubtree() throws {
        let (selfCamera, selfCameraFolder) = try quirkyCamera([.proplistListsSelf], files: threeFiles)
        defer { try? FileManager.default.removeItem(at: selfCameraFolder) }
        let a = RawConnection(selfCamera)
        try a.open()
        let root = try ObjectPropList(decoding: try a.run(.getObjectPropList, [0, 0, 0xFFFF_FFFF, 0, 1]).1).byObject()
        #expect(root.count == 1 && root[0].handle == 0 && root[0].properties[.objectFileName] == .string("/"))
        a.close()
        let (deepCamera, deepCameraFolder) = try quirkyCamera([.proplistIgnoresDepth], files: threeFiles)
        defer { try? FileManager.default.removeItem(at: deepCameraFolder) }
        let b = RawConnection(deepCamera)
        defer { b.close() }
        try b.open()
        let all = try ObjectPropList(decoding: try b.run(.getObjectPropList, [0, 0, 0xFFFF_FFFF, 0, 1]).1).byObject()
        #expect(all.count == 6)  // DCIM, 100MEDIA and four files, though depth 1 was asked
    }

    @Test func handlesListSelfMakesALoopAndNoAllStoragesRefusesTheWildcard() throws {
        let (camera, folder) = try quirkyCamera([.handlesListSelf, .noAllStorages], files: threeFiles)
        defer { try? FileManager.default.removeItem(at: folder) }
        let connection = RawConnection(camera)
        defer { connection.close() }
        try connection.open()
        #expect(try connection.run(.getObjectHandles, [0xFFFF_FFFF, 0, 0xFFFF_FFFF]).0 == .invalidStorageID)
        let dcim = try #require(try connection.handles(parent: 0xFFFF_FFFF).first)
        let media = try #require(camera.card.handle(forPath: "DCIM/100MEDIA"))
        #expect(try connection.handles(parent: media).contains(media))
        #expect(try connection.handles(parent: media).contains(dcim))
    }

    @Test func namesFormatsAndDatasetsTheQuirkyWay() throws {
        let (camera, folder) = try quirkyCamera([.duplicateNames, .invalidUTF16, .truncatedObjectInfo, .genericFormat, .noThumbInfo], files: threeFiles)
        defer { try? FileManager.default.removeItem(at: folder) }
        let connection = RawConnection(camera)
        defer { connection.close() }
        try connection.open()
        let card = camera.card
        let a = try #require(card.handle(forPath: "DCIM/100MEDIA/A.JPG"))
        let b = try #require(card.handle(forPath: "DCIM/100MEDIA/B.JPG"))
        let c = try #require(card.handle(forPath: "DCIM/100MEDIA/C.MP4"))
        let d = try #require(card.handle(forPath: "DCIM/100MEDIA/D.JPG"))
        let infoA = try connection.info(a)
        #expect(infoA.format == .undefined && infoA.thumbFormat.rawValue == 0 && infoA.thumbCompressedSize == 0)
        #expect(throws: PTPError.self) { try connection.info(b) }  // truncated inside its name
        let raw = try connection.run(.getObjectInfo, [c]).1
        #expect(try ObjectInfo(decoding: raw).filename == "C\u{FFFD}.MP4")  // an unpaired surrogate
        #expect(raw.count > 60)
        #expect(try connection.info(d).filename == "c.mp4")  // the fourth file: the third's name, lower case
        #expect(try connection.run(.getThumb, [a]).0 == .generalError)
        let media = try #require(card.handle(forPath: "DCIM/100MEDIA"))
        let list = try connection.run(.getObjectPropList, [media, 0, 0xFFFF_FFFF, 0, 1]).1
        let lone: [UInt8] = [0x00, 0xD8]
        #expect(list.indices.dropLast().contains { list[$0] == lone[0] && list[$0 + 1] == lone[1] })
    }

    @Test func captureIntoANewFolderAnnouncesOnlyTheFolderAndNoEventsSendsNothing() throws {
        let (camera, folder) = try quirkyCamera([.captureNewFolder], files: threeFiles)
        defer { try? FileManager.default.removeItem(at: folder) }
        try DemoCard.enableCapture(on: camera.card)
        let connection = RawConnection(camera)
        defer { connection.close() }
        try connection.open()
        #expect(try connection.run(.initiateCapture, [0, 0]).0 == .ok)
        let events = connection.events.wait { $0.contains { $0.code == .captureComplete } }
        let added = events.filter { $0.code == .objectAdded }.map { $0.parameter(0) }
        #expect(added.count == 1)
        #expect(camera.card.object(added[0])?.name == "101MSHOT")
        let shots = try FileManager.default.contentsOfDirectory(atPath: folder.path + "/DCIM/101MSHOT")
        #expect(shots.count == 1)

        let (quiet, quietFolder) = try quirkyCamera([.noEvents], files: threeFiles)
        defer { try? FileManager.default.removeItem(at: quietFolder) }
        try DemoCard.enableCapture(on: quiet.card)
        let silent = RawConnection(quiet)
        defer { silent.close() }
        try silent.open()
        #expect(try silent.run(.initiateCapture, [0, 0]).0 == .ok)
        #expect(try silent.run(.getStorageIDs).0 == .ok)  // the capture ran after the response
        #expect(silent.events.events.isEmpty)
    }
}
