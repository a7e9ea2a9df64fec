import Foundation
import PTP
import Testing
import VirtualCamera

@testable import MediaManager

/// A listing never trusts a field it can check, and never loses a card in silence (issue 26): against the
/// virtual camera's quirks, each listed through a property list and through ObjectInfo.
@Suite struct ListingToleranceTests {
    /// DCIM/100A with four photos of different sizes, MISC with one file.
    final class Fixture {
        let root: String
        let sizes = ["DCIM/100A/IMG_0001.JPG": 1000, "DCIM/100A/IMG_0002.JPG": 2000, "DCIM/100A/IMG_0003.JPG": 3000,
                     "DCIM/100A/IMG_0004.JPG": 4000, "MISC/notes.txt": 17]

        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("msh-tolerance-\(UUID().uuidString)").path
            for (path, size) in sizes {
                let url = URL(fileURLWithPath: root + "/" + path)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ size) }).write(to: url)
            }
        }

        deinit { try? FileManager.default.removeItem(atPath: root) }

        /// A session on the card served with `quirks` in this process.
        func session(_ quirks: Quirks) throws -> (MediaSession, Card) {
            let card = try Card(folder: root)
            let virtual = VirtualCamera(card: card, quirks: quirks)
            let (initiator, responder) = InMemoryTransport.makePair(timeout: 10)
            Thread { virtual.serve(responder, peer: "test") }.start()
            let camera = try Camera(transport: initiator, location: "test") { responder.close() }
            return (MediaSession(camera: camera, url: .simulator(path: root)), card)
        }
    }

    static let faithful = [
        "objectinfo-size64", "objectinfo-size64,no-proplist", "storage-id-not-a-store",
        "storage-id-not-a-store,no-proplist", "parent-not-a-folder", "parent-not-a-folder,no-proplist",
        "objectinfo-size64,storage-id-not-a-store,parent-not-a-folder,no-proplist",
    ]

    /// Every file listed in its folder, with its true size, the store it is on and its folder as parent.
    @Test(arguments: faithful)
    func everyFileIsListedInItsPlace(_ names: String) throws {
        let fixture = try Fixture()
        let (session, card) = try fixture.session(try Quirks(parsing: names))
        defer { session.close() }
        let catalog = session.catalog
        try catalog.ensureLoaded()
        #expect(catalog.unreadable == nil)
        let files = catalog.allFiles()
        #expect(Set(files.map(\.path)) == Set(fixture.sizes.keys), "\(names): \(files.map(\.path))")
        for file in files {
            #expect(file.size == UInt64(fixture.sizes[file.path] ?? -1), "\(names): \(file.path) \(file.size)")
            #expect(file.storageID == card.storage.id, "\(names): \(file.path) on 0x\(String(file.storageID, radix: 16))")
            let folder = try #require(catalog.file(atPath: file.folder), "\(file.folder)")
            #expect(file.parentID == folder.id, "\(names): \(file.path)")
        }
        // The file whose parent is a file is kept, and said to be repaired; nothing else is.
        let warnings = catalog.takeWarnings()
        if names.contains("parent-not-a-folder") {
            #expect(warnings.count == 1 && warnings[0].hasPrefix("/DCIM/100A/IMG_0002.JPG: "), "\(warnings)")
        } else {
            #expect(warnings.isEmpty, "\(warnings)")
        }
        #expect(catalog.state == .upToDate)
    }

    /// A card of which no object has a name is an error naming what was seen, never an empty card.
    @Test(arguments: ["nameless-objects", "nameless-objects,no-proplist"])
    func aCardOfNamelessObjectsIsUnreadable(_ names: String) throws {
        let fixture = try Fixture()
        let (session, card) = try fixture.session(try Quirks(parsing: names))
        defer { session.close() }
        try session.catalog.ensureLoaded()
        let unreadable = try #require(session.catalog.unreadable)
        // Every object of the card, each kept under a made-up name and said to have none.
        let paths = ["DCIM", "DCIM/100A", "MISC"] + fixture.sizes.keys
        #expect(unreadable.lost.count == paths.count && unreadable.nameless == paths.count, "\(unreadable.lost)")
        let handles = try paths.map { try #require(card.handle(forPath: $0)) }
        #expect(Set(unreadable.lost.map(\.handle)) == Set(handles))
        let dcim = try #require(card.handle(forPath: "DCIM"))
        let problem = try #require(unreadable.lost.first { $0.handle == dcim })
        #expect(problem.cause == .nameless(format: .association, size: 0, parent: 0), "\(problem)")
        #expect(session.catalog.state == .incomplete)
    }

    /// Changes the ObjectInfo of one object (nil: of every object) as a device would send it.
    final class NamelessOne: InitiatorTransport, @unchecked Sendable {
        let inner: InitiatorTransport
        let handle: UInt32?
        let change: @Sendable ([UInt8]) throws -> [UInt8]
        /// Blanks the name, as a device that sends an empty name.
        init(_ inner: InitiatorTransport, handle: UInt32?, change: @escaping @Sendable ([UInt8]) throws -> [UInt8] = { bytes in
            var info = try ObjectInfo(decoding: bytes)
            info.filename = ""
            return info.encoded()
        }) {
            self.inner = inner
            self.handle = handle
            self.change = change
        }

        func transact(_ command: PTPCommand, dataOut: DataSource?, dataIn: DataSink?) throws -> PTPResponse {
            guard command.code == .getObjectInfo, handle == nil || command.parameter(0) == handle, let dataIn else {
                return try inner.transact(command, dataOut: dataOut, dataIn: dataIn)
            }
            let buffer = BufferSink()
            let response = try inner.transact(command, dataOut: nil, dataIn: buffer)
            let bytes = try change(buffer.bytes)
            try dataIn.begin(expectedLength: UInt64(bytes.count))
            try bytes.withUnsafeBytes { try dataIn.write($0) }
            return response
        }

        func setEventHandler(_ handler: (@Sendable (PTPEvent) -> Void)?) { inner.setEventHandler(handler) }
        func close() { inner.close() }
    }

    /// One object without a name costs its name, not the listing: kept as "unnamed" (fetchable) with a
    /// warning naming its handle, the rest listed, the catalog readable.
    @Test func oneNamelessObjectIsLeftOutAlone() throws {
        let fixture = try Fixture()
        let card = try Card(folder: fixture.root)
        let handle = try #require(card.handle(forPath: "DCIM/100A/IMG_0003.JPG"))
        let virtual = VirtualCamera(card: card, quirks: [.noProplist])
        let (initiator, responder) = InMemoryTransport.makePair(timeout: 10)
        Thread { virtual.serve(responder, peer: "test") }.start()
        let camera = try Camera(transport: NamelessOne(initiator, handle: handle), location: "test") { responder.close() }
        let session = MediaSession(camera: camera, url: .simulator(path: fixture.root))
        defer { session.close() }
        try session.catalog.ensureLoaded()
        #expect(session.catalog.unreadable == nil)
        #expect(session.catalog.fileCount == 5)
        #expect(session.catalog.file(atPath: "DCIM/100A/IMG_0003.JPG") == nil)
        #expect(session.catalog.file(atPath: "DCIM/100A/unnamed")?.id == handle)
        #expect(session.catalog.state == .upToDate)
        let warnings = session.catalog.takeWarnings()
        #expect(warnings.count == 1 && warnings[0].contains(String(handle, radix: 16)), "\(warnings)")
    }

    /// A card whose every ObjectInfo is cut short (so nothing could be described) is unreadable too, each
    /// object named with why: "otherwise loses every object".
    @Test func aCardWhoseEveryObjectInfoIsUnreadableIsAnError() throws {
        let fixture = try Fixture()
        let card = try Card(folder: fixture.root)
        let virtual = VirtualCamera(card: card, quirks: [.noProplist])
        let (initiator, responder) = InMemoryTransport.makePair(timeout: 10)
        Thread { virtual.serve(responder, peer: "test") }.start()
        let transport = NamelessOne(initiator, handle: nil) { Array($0.prefix(40)) }
        let camera = try Camera(transport: transport, location: "test") { responder.close() }
        let session = MediaSession(camera: camera, url: .simulator(path: fixture.root))
        defer { session.close() }
        try session.catalog.ensureLoaded()
        let unreadable = try #require(session.catalog.unreadable)
        #expect(unreadable.lost.count == 2 && unreadable.nameless == 0, "\(unreadable.lost)")
        for problem in unreadable.lost {
            guard case .undescribed(let error) = problem.cause, case .malformed = error else {
                Issue.record("\(problem)")
                continue
            }
        }
        #expect(session.catalog.state == .incomplete && session.catalog.fileCount == 0)
    }
}
