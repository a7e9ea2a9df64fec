import Connectors
import Foundation
import POSIX
import PTP
import PTPIP
import TestSupport
import Testing
import VirtualCamera

@testable import MediaManager

/// Our client against each persona of the virtual camera, in-process and over PTP/IP: it opens in the
/// persona's dialect, lists everything, fetches byte for byte (and resumes), reads thumbnails, deletes,
/// captures (the new file found from the dialect's events, not by listing again), reads and sets
/// properties, and hears events.
@Suite(.serialized, .tags(.port), .notInFastRun) struct DialectSessionTests {
    enum Link: CaseIterable { case inProcess, ptpip }

    /// A persona's virtual camera on a card folder, and our client's session with it.
    final class Rig {
        let card: CardFolder
        let virtual: VirtualCamera
        let session: MediaSession
        private var server: PTPIPServer?
        private let responder: InMemoryResponder?

        convenience init(_ persona: PersonaName, link: Link, changeClock: any WaitClock = MonotonicClock()) throws {
            try self.init(persona: .named(persona), link: link, changeClock: changeClock)
        }

        init(persona: Persona, link: Link, changeClock: any WaitClock = MonotonicClock()) throws {
            card = try CardFolder([
                "DCIM/100CANON/IMG_0001.JPG": 0, "DCIM/100CANON/IMG_0002.JPG": 0, "DCIM/100CANON/MVI_0003.MOV": 1_500_001,
            ])
            // Real JPEGs, so thumbnails come from their pictures.
            let demo = DemoMediaFolder.path
            for (name, source) in [("IMG_0001.JPG", "photo_landscape.jpg"), ("IMG_0002.JPG", "photo_portrait.jpg")] {
                let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: demo + "/" + source)))
                try Data(bytes).write(to: URL(fileURLWithPath: card.path + "/DCIM/100CANON/" + name))
                card.files["DCIM/100CANON/" + name] = bytes
            }
            let folder = try Card(folder: card.path)
            try DemoCard.enableCapture(on: folder)
            virtual = VirtualCamera(card: folder, persona: persona)
            let transport: InitiatorTransport
            let url: CameraURL
            switch link {
            case .inProcess:
                let (initiator, responder) = InMemoryTransport.makePair(chunkSize: 1 << 20, timeout: 10)
                let virtual = self.virtual
                Thread { virtual.serve(responder) }.start()
                self.responder = responder
                transport = initiator
                url = .simulator(path: card.path)
            case .ptpip:
                let virtual = self.virtual
                let server = PTPIPServer(host: "127.0.0.1", port: 0) { connection, peer in
                    virtual.serve(connection, peer: peer.address)
                }
                try server.start()
                self.server = server
                responder = nil
                transport = try PTPIPInitiator.connect(host: "127.0.0.1", port: server.port, eventPort: server.port, name: "test")
                url = .ptpip(host: "127.0.0.1", port: server.port, eventPort: server.port)
            }
            let camera = try Camera(transport: transport, location: url.description, changeClock: changeClock)
            session = MediaSession(camera: camera, url: url)
        }

        deinit {
            session.close()
            responder?.close()
            server?.stop()
        }
    }

    static let dialects: [(PersonaName, DialectKind)] = [(.generic, .standard), (.canonEOS, .canonEOS), (.nikon, .nikon)]

    @Test(arguments: dialects, Link.allCases)
    func listFetchResumeThumbnailAndDelete(_ persona: (PersonaName, DialectKind), _ link: Link) throws {
        let rig = try Rig(persona.0, link: link)
        let session = rig.session
        #expect(session.camera.dialect.kind == persona.1)
        try session.catalog.ensureLoaded()
        #expect(session.catalog.state == .upToDate)
        let files = session.catalog.allFiles()
        #expect(Set(files.map(\.path)) == Set(rig.card.files.keys))

        // Every file, byte for byte.
        let into = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: into) }
        let results = try session.fetch(files, to: into)
        #expect(results.allSatisfy { if case .success = $0.outcome { true } else { false } })
        for file in files {
            #expect(FileManager.default.contents(atPath: into + "/" + file.name).map(Array.init) == rig.card.files[file.path])
        }

        // A download cut off continues from its .part.
        let movie = try #require(session.catalog.file(atPath: "DCIM/100CANON/MVI_0003.MOV"))
        let again = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: again) }
        let whole = rig.card.files[movie.path]!
        try writeKeptPart(Array(whole.prefix(700_000)), at: again + "/MVI_0003.MOV.part", of: session.partSource(movie))
        let resumed = try session.fetch([movie], to: again)
        guard case .success(.downloaded(_, _, let resumedFrom)) = resumed.first?.outcome else {
            Issue.record("the resumed fetch failed: \(String(describing: resumed.first?.outcome))")
            return
        }
        #expect(resumedFrom == 700_000)
        #expect(FileManager.default.contents(atPath: again + "/MVI_0003.MOV").map(Array.init) == whole)

        // The camera's thumbnail of a photo is a JPEG.
        let photo = try #require(session.catalog.file(atPath: "DCIM/100CANON/IMG_0001.JPG"))
        let thumb = try session.camera.thumbnail(photo)
        #expect(thumb.starts(with: [0xFF, 0xD8]))

        // Deleting removes the file from the card and the catalog.
        try session.delete(photo)
        #expect(!FileManager.default.fileExists(atPath: rig.card.path + "/DCIM/100CANON/IMG_0001.JPG"))
        #expect(session.catalog.file(atPath: photo.path) == nil)
    }

    @Test(arguments: dialects, Link.allCases)
    func captureFindsTheNewFileFromTheCamerasEvents(_ persona: (PersonaName, DialectKind), _ link: Link) throws {
        let rig = try Rig(persona.0, link: link)
        let session = rig.session
        #expect(session.camera.summary.canCapture)
        let result = try session.capture(timeout: 10)
        #expect(!result.foundByListing)
        #expect(result.files.count == 1)
        let shot = try #require(result.files.first)
        #expect(shot.path.hasPrefix("DCIM/100CANON/"))
        #expect(FileManager.default.fileExists(atPath: rig.card.path + "/" + shot.path))
        #expect(session.catalog.file(atPath: shot.path) != nil)
        // Polling stopped with the capture: nothing listens any more.
        #expect(!session.camera.isPollingForChanges)
    }

    @Test(arguments: Link.allCases)
    func aNikonWithoutCardCaptureShootsIntoItsMemoryAndTheShotIsFetched(_ link: Link) throws {
        var persona = Persona.named(.nikon)
        persona.withoutOperations.insert(.initiateCapture)
        let rig = try Rig(persona: persona, link: link)
        let session = rig.session
        #expect(session.camera.dialect.kind == .nikon)
        let before = try FileManager.default.contentsOfDirectory(atPath: rig.card.path + "/DCIM/100CANON")
        let result = try session.capture(timeout: 10)
        #expect(!result.foundByListing)
        let shot = try #require(result.files.first)
        #expect(shot.id == 0xFFFF_0001)
        #expect(shot.name == "DSC_0001.JPG")
        // Not on the card: in the camera's memory, fetched from there.
        #expect(try FileManager.default.contentsOfDirectory(atPath: rig.card.path + "/DCIM/100CANON") == before)
        let into = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: into) }
        let fetched = try session.fetch([shot], to: into)
        #expect(fetched.allSatisfy { if case .success = $0.outcome { true } else { false } })
        let bytes = try #require(FileManager.default.contents(atPath: into + "/DSC_0001.JPG"))
        #expect(bytes.count == Int(shot.size) && bytes.starts(with: [0xFF, 0xD8]))
        try session.delete(shot)
    }

    @Test(arguments: Link.allCases)
    func nikonEventsComeFromItsGetEventWhileSomethingListens(_ link: Link) throws {
        let rig = try Rig(.nikon, link: link)
        let camera = rig.session.camera
        #expect(camera.pollsForChanges)
        try rig.session.catalog.ensureLoaded()
        let heard = Mailbox<PTPEvent>()
        let token = camera.addEventHandler { heard.put($0) }
        defer { camera.removeEventHandler(token) }
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: rig.card.path + "/DCIM/100CANON/DSC_0009.JPG"))
        rig.virtual.card.refresh(full: true)
        let added = try #require(heard.take(timeout: 10) { $0.code == .objectAdded })
        #expect(rig.virtual.card.object(added.parameter(0))?.name == "DSC_0009.JPG")
        try camera.setProperty(.whiteBalance, to: .uint16(4))
        #expect(heard.take(timeout: 10) { $0.code == .devicePropChanged && $0.parameter(0) == 0x5005 } != nil)
    }

    @Test(arguments: Link.allCases)
    func eosPropertiesAreReadFromTheEventStreamAndSetWithSetDevicePropValueEx(_ link: Link) throws {
        let rig = try Rig(.canonEOS, link: link)
        let camera = rig.session.camera
        let codes = camera.propertyCodes
        for code in [DevicePropertyCode.canonEOSAperture, .canonEOSShutterSpeed, .canonEOSISOSpeed, .canonEOSBatteryPower] {
            #expect(codes.contains(code), "\(code)")
        }
        #expect(camera.canDescribeProperties)
        let aperture = try camera.describeProperty(.canonEOSAperture)
        #expect(aperture.current == .uint16(0x30))
        #expect(aperture.writable)
        guard case .enumeration(let allowed) = aperture.form else {
            Issue.record("no allowed values")
            return
        }
        #expect(allowed.contains(.uint16(0x40)))
        let battery = try camera.describeProperty(.canonEOSBatteryPower)
        #expect(!battery.writable)

        // Set, and heard back as an event by whoever listens.
        let heard = Mailbox<PTPEvent>()
        let token = camera.addEventHandler { heard.put($0) }
        defer { camera.removeEventHandler(token) }
        #expect(camera.isPollingForChanges)
        try camera.setProperty(.canonEOSAperture, to: .uint16(0x40))
        #expect(try camera.describeProperty(.canonEOSAperture).current == .uint16(0x40))
        #expect(heard.take(timeout: 10) { $0.code == .devicePropChanged && $0.parameter(0) == 0xD101 } != nil)
        // The body refuses a value it does not allow.
        expectResponse(.invalidDevicePropValue, to: .canonEOSSetDevicePropValueEx) {
            try camera.setProperty(.canonEOSAperture, to: .uint16(0x99))
        }
    }

    @Test(arguments: Link.allCases)
    func eosEventsReportFilesAddedAndRemovedWhileSomethingListens(_ link: Link) throws {
        let clock = ManualWaitClock()
        let rig = try Rig(.canonEOS, link: link, changeClock: clock)
        let camera = rig.session.camera
        try rig.session.catalog.ensureLoaded()
        let heard = Mailbox<PTPEvent>()
        let token = camera.addEventHandler { heard.put($0) }
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: rig.card.path + "/DCIM/100CANON/IMG_0009.JPG"))
        rig.virtual.card.refresh(full: true)
        let added = try #require(heard.take(timeout: 10) { $0.code == .objectAdded })
        #expect(rig.virtual.card.object(added.parameter(0))?.name == "IMG_0009.JPG")
        let file = try #require(rig.session.catalog.file(atPath: "DCIM/100CANON/IMG_0002.JPG"))
        try FileManager.default.removeItem(atPath: rig.card.path + "/DCIM/100CANON/IMG_0002.JPG")
        rig.virtual.card.refresh(full: true)
        #expect(heard.take(timeout: 10) { $0.code == .objectRemoved && $0.parameter(0) == file.id } != nil)
        camera.removeEventHandler(token)
        #expect(!camera.isPollingForChanges)
        // With nobody listening, the catalog still catches up when it is asked, once its last poll is a
        // second old (on the camera's manual clock, moved on here).
        try Data([4]).write(to: URL(fileURLWithPath: rig.card.path + "/DCIM/100CANON/IMG_0010.JPG"))
        rig.virtual.card.refresh(full: true)
        clock.advance(by: 1)
        try rig.session.catalog.ensureLoaded()
        #expect(rig.session.catalog.file(atPath: "DCIM/100CANON/IMG_0010.JPG") != nil)
    }
}


enum DemoMediaFolder {
    /// The demo media folder in the sources (real photos for thumbnails).
    static var path: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/VirtualCamera/DemoMedia").path
    }
}
