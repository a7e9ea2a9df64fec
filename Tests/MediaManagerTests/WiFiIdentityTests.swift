import Connectors
import Foundation
import MediaManager
import POSIX
import PTPIP
import TestSupport
import Testing
import VirtualCamera

/// This computer's Wi-Fi identity (a GUID made once per state folder), and what opening a Wi-Fi camera does
/// with it: sent on the wire, a first contact waiting for a confirmation (and saying so), a known camera
/// waiting the ordinary time, a refusal as data with its reason.
@Suite(.serialized, .tags(.port), .notInFastRun) struct WiFiIdentityTests {
    @Test func theGUIDIsMadeOnceAndKeptPrivately() throws {
        let home = try TemporaryFolder("msh-wifi-id")
        let state = WiFiState(folder: home.path("state/mediashell"))
        let first = try state.identity()
        #expect(first.guid.count == 16)
        #expect(try state.identity() == first)
        #expect(try WiFiState(folder: home.path("state/mediashell")).identity() == first)
        var info = stat()
        #expect(stat(home.path("state/mediashell/ptpip-guid"), &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
        #expect(first.name == WiFiIdentity.hostName)
    }

    @Test func twoStateFoldersHaveTwoGUIDs() throws {
        let one = try TemporaryFolder("msh-wifi-a")
        let two = try TemporaryFolder("msh-wifi-b")
        #expect(try WiFiState(folder: one.path).identity().guid != WiFiState(folder: two.path).identity().guid)
        #expect(WiFiState(environment: ["XDG_STATE_HOME": one.path])?.folder == one.path + "/mediashell")
        #expect(WiFiState(environment: ["HOME": two.path])?.folder == two.path + "/.local/state/mediashell")
    }

    @Test func aFileThatHoldsNoGUIDIsSaidSo() throws {
        let home = try TemporaryFolder("msh-wifi-bad")
        try home.write("ptpip-guid", text: "not a guid\n")
        #expect(throws: WiFiStateError.unreadableGUID(path: home.path("ptpip-guid"))) { try WiFiState(folder: home.path).identity() }
    }

    @Test func guidsAreTypedAsHex() {
        #expect(WiFiIdentity.parseGUID("00112233-4455-6677-8899-aabbccddeeff") == [0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xAA, 0xBB, 0xCC, 0xDD, 0xEE, 0xFF])
        #expect(WiFiIdentity.text(Array(0..<16)) == "000102030405060708090A0B0C0D0E0F")
        for bad in ["", "0011", String(repeating: "g", count: 32), String(repeating: "0", count: 34)] {
            #expect(WiFiIdentity.parseGUID(bad) == nil)
        }
    }

    /// A served camera whose gate answers as `decide` says, and what it saw.
    final class GatedCamera: Sendable {
        let server: PTPIPServer
        let guids = Mailbox<[UInt8]>()

        init(decide: @escaping @Sendable ([UInt8]) -> PTPIPAdmission) throws {
            let camera = VirtualCamera(card: try DemoCard.make())
            let guids = self.guids
            server = PTPIPServer(
                host: "127.0.0.1", port: 0,
                gate: { peer in
                    guids.put(peer.guid)
                    return decide(peer.guid)
                },
                handler: { connection, peer in camera.serve(connection, peer: peer.address) })
            try server.start()
        }

        var url: CameraURL { .ptpip(host: "127.0.0.1", port: server.port, eventPort: server.port) }
    }

    @Test func aFirstContactWaitsForItsConfirmationThenTheCameraIsKnown() throws {
        let home = try TemporaryFolder("msh-wifi-pair")
        let state = WiFiState(folder: home.path)
        let said = Mailbox<Double>()
        // The camera confirms only once the opener has said it is waiting: a user pressing OK on its screen.
        let camera = try GatedCamera { _ in
            _ = said.take(timeout: 30).map { said.put($0) }
            return .admit
        }
        defer { camera.server.stop() }
        var options = CameraConnector.Options()
        options.identity = try state.identity()
        options.wifiState = state
        options.onFirstContactWait = { said.put($0) }
        let opened = try CameraConnector.open(camera.url, options: options)
        opened.close()
        #expect(said.all == [60])
        #expect(camera.guids.all == [options.identity.guid])
        #expect(state.knows(host: "127.0.0.1"))
    }

    @Test func aKnownCameraIsNotAFirstContact() throws {
        let home = try TemporaryFolder("msh-wifi-known")
        let state = WiFiState(folder: home.path)
        try state.remember(host: "127.0.0.1", cameraGUID: Array(repeating: 7, count: 16), name: "Known")
        let camera = try GatedCamera { _ in .admit }
        defer { camera.server.stop() }
        var options = CameraConnector.Options()
        options.wifiState = state
        let said = Mailbox<Double>()
        options.onFirstContactWait = { said.put($0) }
        try CameraConnector.open(camera.url, options: options).close()
        #expect(said.all.isEmpty)
    }

    @Test func aRefusalSaysItsReasonAndTheGUIDItRefused() throws {
        let camera = try GatedCamera { _ in .refuse(.rejectedInitiator) }
        defer { camera.server.stop() }
        var options = CameraConnector.Options()
        options.identity = WiFiIdentity(guid: Array(repeating: 0xAB, count: 16), name: "tester")
        #expect(throws: CameraOpenError.refused(host: camera.url.description, reason: .rejectedInitiator, guid: String(repeating: "AB", count: 16))) {
            try CameraConnector.open(camera.url, options: options)
        }
    }
}
