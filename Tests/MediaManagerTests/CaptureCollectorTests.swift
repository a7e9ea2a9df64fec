import Foundation
import Synchronization
import TestSupport
import Testing
@testable import MediaManager

/// What a capture returns is read under the collector's lock: an ObjectAdded that arrives after
/// CaptureComplete (some cameras send them late) is appended by the event thread while the capture reads
/// the list. A data race the sanitized run (`swift test --sanitize=thread`) reports.
@Suite struct CaptureCollectorTests {
    @Test func aLateObjectAddedDoesNotRaceTheCapturesResult() throws {
        let collector = CaptureCollector()
        collector.record(.added(1))
        collector.record(.captureComplete)
        let lateDone = Mailbox<Void>()
        let capturing = Atomic(true)
        Thread {
            // Late ObjectAdded events for as long as the capture is returning (relaxed: no ordering of its
            // own to hide a race).
            var handle: UInt32 = 2
            while capturing.load(ordering: .relaxed) && handle < 1_000_000 {
                collector.record(.added(handle))
                handle += 1
            }
            lateDone.put(())
        }.start()
        #expect(collector.waitForCompletion(timeout: 10))
        let added = collector.added
        capturing.store(false, ordering: .relaxed)
        #expect(added.first == 1)
        #expect(lateDone.take(timeout: 30) != nil)
    }
}
