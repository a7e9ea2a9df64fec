import Foundation
import PTP
import Synchronization
import TestSupport
import Testing
@testable import VirtualCamera

/// `PTPSession` is shared between threads (the shell's, thumbnail workers, the event thread): what `open`
/// learns (DeviceInfo) is written under its lock, so `supports` may be asked at any time. A data race the
/// sanitized run (`swift test --sanitize=thread`) reports.
@Suite struct SessionRaceTests {
    @Test func supportsCanBeAskedWhileTheSessionReopens() throws {
        let h = try Harness(files: ["DCIM/100MEDIA/A.JPG": pattern(10)])
        defer { #expect(h.finish()) }
        let session = h.session
        let readerDone = Mailbox<Void>()
        let opening = Atomic(true)
        Thread {
            // Asks for as long as the reopening lasts (relaxed: no ordering of its own to hide a race).
            var asked = 0
            while opening.load(ordering: .relaxed) && asked < 10_000_000 {
                _ = session.supports(.getObjectPropList)
                asked += 1
            }
            readerDone.put(())
        }.start()
        for _ in 0..<20 { try session.open() }
        opening.store(false, ordering: .relaxed)
        #expect(readerDone.take(timeout: 30) != nil)
        #expect(session.supports(.getObjectPropList))
    }
}
