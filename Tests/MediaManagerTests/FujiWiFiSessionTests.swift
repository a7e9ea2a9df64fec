import Connectors
import Foundation
import FujiWiFi
import MediaFormats
import PTP
import TestSupport
import Testing
import VirtualCamera
@testable import MediaManager

/// The virtual camera as a Fujifilm X body on Wi-Fi (persona fuji-x over Fuji's framing), in this process,
/// on ports chosen at run time.
final class FujiLoopbackServer: @unchecked Sendable {
    let camera: VirtualCamera
    let server: FujiServer

    init(card: Card, persona: Persona = .named(.fujiX)) throws {
        let camera = VirtualCamera(card: card, persona: persona)
        self.camera = camera
        server = FujiServer(host: "127.0.0.1", port: 0, eventPort: 0, name: camera.identity.model) { connection, peer in
            camera.serve(connection, peer: peer.address)
        }
        try server.start()
    }

    var url: CameraURL { .fuji(host: "127.0.0.1", port: server.port, eventPort: server.eventPort) }

    deinit { server.stop() }
}

@Suite(.serialized, .tags(.port), .notInFastRun) struct FujiWiFiSessionTests {
    /// Open (with the function-mode handshake), list all, fetch every file byte-identical, again (skipped),
    /// the clash policy: what every camera must do, here over Fuji's framing.
    @Test func worksOverFujiWiFi() throws {
        let card = try CardFolder(MediaSessionTests.layout)
        let server = try FujiLoopbackServer(card: try Card(folder: card.path))
        let session = try MediaSession.open(server.url)
        defer { session.close() }
        #expect(session.camera.dialect.kind == .fujiX)
        #expect(session.camera.summary.manufacturer == "FUJIFILM")
        let facts = try #require((session.camera.dialect as? FujiXDialect)?.facts)
        #expect(facts.state == .remoteAccess)
        #expect(facts.mode == .remote)
        #expect(facts.remoteVersion == 0x0002_0004)
        try MediaSessionTests().check(session, card)
    }

    /// Without the handshake (standard PTP spoken to the body) the card is refused: the persona holds the
    /// body's rule, so the test above proves the handshake is done.
    @Test func aBodyRefusesTheCardBeforeTheHandshake() throws {
        let card = try CardFolder(["DCIM/100_FUJI/DSCF0001.JPG": 100])
        let server = try FujiLoopbackServer(card: try Card(folder: card.path))
        let transport = try FujiInitiator.connect(
            host: "127.0.0.1", port: server.server.port, eventPort: nil, name: "t", timeouts: FujiTimeouts(connect: 5, read: 10))
        let camera = try Camera(transport: transport, location: "fuji:", dialect: StandardDialect())
        defer { camera.close() }
        #expect {
            _ = try camera.session.getStorageIDs()
        } throws: { error in
            (error as? PTPError)?.responseCode == .accessDenied
        }
    }

    /// A download cut short continues from its `.part`; thumbnails come from the body; delete removes the
    /// file; a capture's new file is found through the event list (0xD212, polled).
    @Test func resumeThumbnailDeleteCaptureAndEvents() throws {
        let photo = try Data(contentsOf: URL(fileURLWithPath: try #require(DemoMedia.file("photo_landscape.jpg"))))
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/DCIM/100_FUJI", withIntermediateDirectories: true)
        try photo.write(to: URL(fileURLWithPath: folder + "/DCIM/100_FUJI/DSCF0001.JPG"))
        try Data(repeating: 7, count: 300_000).write(to: URL(fileURLWithPath: folder + "/DCIM/100_FUJI/DSCF0002.RAF"))
        let card = try Card(folder: folder)
        try DemoCard.enableCapture(on: card)
        let server = try FujiLoopbackServer(card: card)
        let session = try MediaSession.open(server.url)
        defer { session.close() }
        try session.catalog.ensureLoaded()
        let jpeg = try #require(session.catalog.file(atPath: "DCIM/100_FUJI/DSCF0001.JPG"))
        let raw = try #require(session.catalog.file(atPath: "DCIM/100_FUJI/DSCF0002.RAF"))

        // Resume: the first 100,000 bytes are already in the .part.
        let destination = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: destination) }
        try writeKeptPart([UInt8](repeating: 7, count: 100_000), at: destination + "/DSCF0002.RAF.part", of: session.partSource(raw))
        let resumed = try session.fetch([raw], to: destination)
        #expect(try resumed[0].outcome.get() == .downloaded(path: destination + "/DSCF0002.RAF", bytes: 300_000, resumedFrom: 100_000))
        #expect(try Data(contentsOf: URL(fileURLWithPath: destination + "/DSCF0002.RAF")) == Data(repeating: 7, count: 300_000))

        // Thumbnail: a JPEG from the body.
        let thumbnail = try session.camera.thumbnail(jpeg)
        #expect(Array(thumbnail.prefix(2)) == [0xFF, 0xD8])

        // Events: a file that appears on the card is reported through the polled event list.
        let events = Mailbox<PTPEvent>()
        let token = session.camera.addEventHandler { events.put($0) }
        let added = card.add(name: "DSCF0003.JPG", in: "DCIM/100_FUJI", content: .bytes([1, 2, 3]))
        #expect(events.take(timeout: 20) { $0.code == .objectAdded && $0.parameter(0) == added } != nil)
        session.camera.removeEventHandler(token)

        // Capture: remote mode; InitiateOpenCapture once, then the new object through the events.
        #expect(session.camera.summary.canCapture)
        let shot = try session.camera.capture(timeout: 20)
        #expect(!shot.added.isEmpty)
        let again = try session.camera.capture(timeout: 20)
        #expect(!again.added.isEmpty)

        // Delete.
        try session.delete(jpeg)
        #expect(card.object(jpeg.id) == nil)
    }

    /// The body's Wi-Fi state decides the handshake: full access (no remote mode, as an X-A2) browses in
    /// view-all mode and refuses capture by case; a body that waits for the user is asked again until it
    /// lets the host in; PC AutoSave is refused by case.
    @Test func eachWiFiStateIsHandled() throws {
        let card = try CardFolder(["DCIM/100_FUJI/DSCF0001.JPG": 100])
        do {
            let cameraCard = try Card(folder: card.path)
            try DemoCard.enableCapture(on: cameraCard)
            let server = try FujiLoopbackServer(card: cameraCard, persona: .fujiX(cameraState: 2))
            let session = try MediaSession.open(server.url)
            defer { session.close() }
            let facts = try #require((session.camera.dialect as? FujiXDialect)?.facts)
            #expect(facts.state == .fullAccess && facts.mode == .viewAllImages && facts.remoteVersion == nil)
            try session.catalog.ensureLoaded()
            #expect(session.catalog.fileCount == 1)
            #expect(!session.camera.summary.canCapture)
            #expect {
                _ = try session.camera.dialect.capture(session.camera.session)
            } throws: { error in
                error as? FujiModeError == .noRemoteCapture(state: .fullAccess)
            }
        }
        do {
            let server = try FujiLoopbackServer(card: try Card(folder: card.path), persona: .fujiX(cameraState: 6, waitingReads: 2))
            let session = try MediaSession.open(server.url)
            defer { session.close() }
            #expect((session.camera.dialect as? FujiXDialect)?.facts?.state == .remoteAccess)
        }
        do {
            let server = try FujiLoopbackServer(card: try Card(folder: card.path), persona: .fujiX(cameraState: 3))
            #expect {
                _ = try MediaSession.open(server.url)
            } throws: { error in
                error as? FujiModeError == .pcAutoSave
            }
        }
    }

    /// `props` over Fuji's framing: the body's standard properties are described and set.
    @Test func properties() throws {
        let card = try CardFolder(["DCIM/100_FUJI/DSCF0001.JPG": 100])
        let server = try FujiLoopbackServer(card: try Card(folder: card.path))
        let session = try MediaSession.open(server.url)
        defer { session.close() }
        let codes = session.camera.dialect.propertyCodes(session.camera.session)
        #expect(codes.contains(.batteryLevel))
        let battery = try session.camera.describeProperty(.batteryLevel)
        #expect(battery.code == .batteryLevel)
    }
}
