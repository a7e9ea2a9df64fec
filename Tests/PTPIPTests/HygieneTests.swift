import Foundation
import POSIX
import PTP
@testable import PTPIP
import TestSupport
import Testing

extension Network {
    /// No descriptor or thread outlives the connections and servers that made it. These count the whole
    /// process's descriptors and threads, so they run only in a process of their own: `scripts/test` runs
    /// them after the main suite with MEDIASHELL_ISOLATED_TESTS=1 and `--filter Hygiene`.
    @Suite(.enabled(if: ProcessInfo.processInfo.environment["MEDIASHELL_ISOLATED_TESTS"] == "1"), .tags(.port), .notInFastRun)
    struct Hygiene {
        @Test func twoHundredConnectionsLeaveNothingBehind() throws {
            let descriptorsBefore = openDescriptorCount()
            let threadsBefore = threadCounts()
            let before = Set(liveThreads().keys)

            let log = LogLines()
            let server = try startServer(log: log)
            for cycle in 0..<200 {
                let initiator = try connectInitiator(to: server, name: "cycle-\(cycle)")
                if cycle % 50 == 0 {
                    // Now and then a whole session and a download, so the data path is part of the count.
                    let session = PTPSession(transport: initiator)
                    try session.open()
                    try session.getObject(2, into: BufferSink())
                    session.close()
                } else {
                    initiator.close()
                }
            }
            // And a few hostile clients, whose sockets must be closed as well.
            for bytes in [[UInt8](), [1, 2, 3], [0xFF, 0xFF, 0xFF, 0xFF, 1, 0, 0, 0]] {
                let client = try RawClient(port: server.port)
                try client.send(bytes)
                client.socket.close()
            }
            // Everything served and seen off: the last hostile one's line is in the log.
            #expect(log.waitFor("dropped: malformed packet") != nil)
            server.stop()

            // Exact: every descriptor is closed before stop() returns.
            #expect(openDescriptorCount() == descriptorsBefore)
            // Exact: the server's and initiators' threads are all joined by now, and the other suites
            // running in parallel are pure computation on the already started cooperative pool. A joined
            // thread may still be on its way out of the kernel: each new one's end is waited for (a pidfd).
            #expect(threadsBefore.ptpip == 0)
            #expect(try waitForThreadsToEnd(Set(liveThreads().keys).subtracting(before), until: .after(5)))
            #expect(threadCounts() == (threadsBefore.total, 0), "\(threadCounts()) vs \(threadsBefore)")
        }

        @Test func droppingAnInitiatorWithoutClosingItStillEndsItsThread() throws {
            let descriptorsBefore = openDescriptorCount()
            let server = try startServer()
            let eventThreads: [pid_t]
            do {
                let initiator = try connectInitiator(to: server)
                // JoinableThread names its thread before it returns.
                eventThreads = liveThreads().filter { $0.value == "ptpip-events" }.map(\.key)
                #expect(eventThreads.count == 1)
                _ = initiator
            }
            // deinit closed it and joined its event thread, which may still be on its way out of the kernel.
            #expect(try waitForThreadsToEnd(eventThreads, until: .after(5)))
            #expect(threadCounts(named: "ptpip-events") == 0)
            server.stop()
            #expect(openDescriptorCount() == descriptorsBefore)
        }
    }
}
