import Foundation
import MediaManager
import PTP
import TestSupport
import Testing
import VirtualCamera

@testable import Shell
import Words

/// `events` prints what the virtual camera announces while another initiator shoots, changes a setting and
/// deletes a file, and what a card folder announces when a file is dropped into it; Ctrl-C ends it cleanly.
@Suite struct EventsCommandTests {
    @Test func eventsFromAnotherSessionArePrintedByNameUntilCtrlC() throws {
        let card = try makeCardFolder(bigFileSize: 1_000)
        let camera = try QuirkyCamera([], folder: card.path, capture: true)
        let shell = LiveShell()
        shell.interpreter.attach(camera.session)
        shell.start("events")
        #expect(shell.line { $0.hasPrefix("waiting for the camera's events") } != nil)

        let other = try secondClient(of: camera.camera)
        defer { other.close() }
        try other.setProperty(.whiteBalance, to: .uint16(4))
        #expect(shell.line { $0 == "DevicePropChanged whitebalance daylight" } != nil)
        _ = try other.capture(timeout: 10)
        #expect(shell.line { $0 == "ObjectAdded /DCIM/101MEDIA/IMG_0102.JPG" } != nil, "\(shell.seen.all)")
        #expect(shell.line { $0 == "CaptureComplete" } != nil)
        let handle = try #require(camera.camera.card.handle(forPath: "DCIM/100MEDIA/DJI_0001.JPG"))
        try other.session.deleteObject(handle)
        #expect(shell.line { $0 == "ObjectRemoved /DCIM/100MEDIA/DJI_0001.JPG" } != nil)

        #expect(shell.stop() == .success)
        #expect(shell.output.errors.all.isEmpty, "\(shell.output.errors.all)")
        camera.session.close()
    }

    @Test func codesUnknownHereAreShownByCodeWithTheirParameters() {
        let unknown = CameraEventText(PTPEvent(EventCode(0xC101), parameters: [7, 0xFFFF_FFFF]), path: nil) { _ in ("", nil) }
        #expect(unknown.line == "Event 0xC101 0x00000007 0xffffffff")
        #expect(unknown.json == #"{"code":"0xc101","event":"Event 0xC101","parameters":["0x00000007","0xffffffff"]}"#)
        let store = CameraEventText(PTPEvent(.storeRemoved, parameters: [0x0002_0001]), path: nil) { _ in ("", nil) }
        #expect(store.line == "StoreRemoved 0x00020001")
    }

    @Test func jsonForScriptsAndFilesDroppedIntoACardFolder() throws {
        let card = try makeCardFolder(bigFileSize: 1_000)
        let shell = LiveShell()
        try shell.interpreter.open(.folder(path: card.path))
        shell.start("events --json")
        // The command subscribes before it reads anything, then asks the folder card to watch.
        try card.write("DCIM/101MEDIA/IMG_0200.JPG", patternBytes(2_000, seed: 20))
        let line = try #require(shell.line { $0.contains("ObjectAdded") })
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String]
        #expect(object?["event"] == "ObjectAdded" && object?["code"] == "0x4002", "\(line)")
        #expect(object?["path"] == "/DCIM/101MEDIA/IMG_0200.JPG" && object?["handle"]?.count == 10, "\(line)")
        #expect(shell.stop() == .success)
    }
}
