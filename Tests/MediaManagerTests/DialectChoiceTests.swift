import Foundation
import PTP
import Testing
import VirtualCamera

@testable import MediaManager

/// Which dialect a camera is spoken to in, from its DeviceInfo; the generic virtual camera is a standard
/// camera and nothing about it is polled.
@Suite struct DialectChoiceTests {
    @Test func aStandardCameraGetsTheStandardDialect() throws {
        var info = DeviceInfo()
        info.manufacturer = "mediashell"
        #expect(CameraDialects.choose(for: info).kind == .standard)
    }

    @Test func theGenericVirtualCameraIsStandardAndNeverPolled() throws {
        let virtual = VirtualCamera(card: try DemoCard.make())
        let (initiator, responder) = InMemoryTransport.makePair(timeout: 10)
        let served = Thread { virtual.serve(responder) }
        served.start()
        let camera = try Camera(transport: initiator, location: "test", onClose: { responder.close() })
        defer { camera.close() }
        #expect(camera.dialect.kind == .standard)
        #expect(camera.summary.dialect == .standard)
        #expect(!camera.pollsForChanges)
        let token = camera.addEventHandler { _ in }
        #expect(!camera.isPollingForChanges)
        camera.removeEventHandler(token)
        #expect(camera.summary.canCapture)
    }
}
