import Foundation
import POSIX
import PTP
import TestSupport
import Testing
@testable import VirtualCamera

/// A clock that only moves when the shaped link sleeps, so the modelled cost of a session is exactly what
/// the clock reads at its end, whatever the machine does meanwhile.
final class ManualLinkClock: LinkClock, Sendable {
    private let state = Locked<(current: Double, sleeps: [Double])>((0, []))

    var sleeps: [Double] { state.withLock { $0.sleeps } }
    func now() -> Double { state.withLock { $0.current } }
    func sleep(until moment: Double) {
        state.withLock { state in
            state.sleeps.append(moment)
            state.current = max(state.current, moment)
        }
    }
}

@Suite struct LinkModelParsingTests {
    @Test func presetsAndCustomLinks() throws {
        #expect(LinkModel(parsing: "wifi") == LinkModel(roundTrip: 0.005, bytesPerSecond: 20e6))
        #expect(LinkModel(parsing: "USB2") == LinkModel(roundTrip: 0.0005, bytesPerSecond: 40e6))
        #expect(LinkModel(parsing: "usb3")?.bytesPerSecond == 300e6)
        #expect(LinkModel(parsing: "2.5,12") == LinkModel(roundTrip: 0.0025, bytesPerSecond: 12e6))
        #expect(LinkModel(parsing: "0,1")?.roundTrip == 0)
        #expect(LinkModel(parsing: "wifi")?.description == "5 ms round trip, 20 MB/s")
    }

    @Test(arguments: ["", "lte", "5", "5,", ",20", "5,0", "-1,20", "5,-3", "nan,20", "5,inf", "1,2,3", "99999,1"])
    func refusesWhatIsNotALink(_ text: String) {
        #expect(LinkModel(parsing: text) == nil)
    }
}

@Suite struct MonotonicLinkClockTests {
    /// Every sleep of `serve --link` runs on a thread whose sleeps end on time: the clock sets the slack of
    /// whichever thread sleeps (a connection's), not of the one that made it.
    @Test func theSleepingThreadSleepsPrecisely() {
        let clock = MonotonicLinkClock()
        let slacks = LockedBox<[Int]>([])
        let done = Mailbox<Void>()
        Thread {
            slacks.append(timerSlackNanoseconds())
            clock.sleep(until: 0)  // a moment long past: no wait, but the slack is set all the same
            slacks.append(timerSlackNanoseconds())
            done.put(())
        }.start()
        #expect(done.take(timeout: 10) != nil)
        #expect(slacks.value.count == 2 && slacks.value[0] > 1 && slacks.value[1] == 1, "\(slacks.value)")
    }
}

@Suite struct LinkShapedTransportTests {
    /// A card served over the in-memory pair through the shaped link, on a thread of its own.
    struct Served {
        let session: PTPSession
        let finished: Mailbox<Void>
        let stats: LockedBox<SessionStats?>
    }

    func serve(_ files: [String: [UInt8]], link: LinkModel, clock: ManualLinkClock) throws -> (Served, URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("link-\(UUID().uuidString)")
        for (path, bytes) in files {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: url)
        }
        let camera = VirtualCamera(card: try Card(folder: folder.path, readOnly: true))
        let (initiator, responder) = InMemoryTransport.makePair(chunkSize: 256 << 10, timeout: 10)
        let shaped = LinkShapedTransport(responder, link: link, clock: clock)
        let finished = Mailbox<Void>()
        let stats = LockedBox<SessionStats?>(nil)
        Thread {
            stats.set(camera.serve(shaped))
            finished.put(())
        }.start()
        return (Served(session: PTPSession(transport: initiator), finished: finished, stats: stats), folder)
    }

    @Test func aSessionCostsARoundTripPerTransactionAndItsBytesAtTheBandwidth() throws {
        let link = LinkModel(roundTrip: 0.005, bytesPerSecond: 20e6)
        let clock = ManualLinkClock()
        let content = pattern(3 << 20, seed: 7)
        let (served, folder) = try serve(["DCIM/100MEDIA/BIG.MP4": content], link: link, clock: clock)
        defer { try? FileManager.default.removeItem(at: folder) }
        try served.session.open()
        var handle: UInt32 = 0xFFFF_FFFF
        for name in ["DCIM", "100MEDIA", "BIG.MP4"] {
            for h in try served.session.getObjectHandles(storage: 0xFFFF_FFFF, parent: handle)
            where try served.session.getObjectInfo(h).filename == name {
                handle = h
            }
        }
        let sink = Collector()
        try served.session.getObject(handle, into: sink)
        served.session.close()
        #expect(served.finished.take(timeout: 10) != nil)
        #expect(sink.bytes == content, "the bytes cross the shaped link unchanged")

        let stats = try #require(served.stats.value)
        let modelled = Double(stats.transactions) * link.roundTrip + link.transmission(of: stats.bytesSent)
        #expect(stats.transactions >= 8)
        #expect(abs(clock.now() - modelled) < 1e-9, "ended at \(clock.now()), the model says \(modelled)")
        // The 3 MiB file was paced chunk by chunk, not handed over in one burst at the end.
        #expect(clock.sleeps.count > Int(stats.transactions) + 10)
        let sorted = clock.sleeps.sorted()
        #expect(sorted == clock.sleeps, "planned moments never go back")
    }

    @Test func dataFromTheInitiatorTakesItsTimeToo() throws {
        final class Inner: ResponderTransport, @unchecked Sendable {
            var sent: [PTPResponse] = []
            func receiveCommand() throws -> IncomingCommand? {
                IncomingCommand(PTPCommand(.sendObject, transactionID: 5, parameters: []), hasDataOut: true)
            }
            func receiveData(transactionID: UInt32, limit: Int) throws -> [UInt8] { [UInt8](repeating: 1, count: 4_000_000) }
            func sendData(transactionID: UInt32, source: DataSource) throws {}
            func sendResponse(_ response: PTPResponse) throws { sent.append(response) }
            func sendEvent(_ event: PTPEvent) throws {}
            func close() {}
        }
        let clock = ManualLinkClock()
        let inner = Inner()
        let shaped = LinkShapedTransport(inner, link: LinkModel(roundTrip: 0.01, bytesPerSecond: 40e6), clock: clock)
        let command = try #require(try shaped.receiveCommand())
        _ = try shaped.receiveData(transactionID: command.command.transactionID, limit: 8 << 20)
        try shaped.sendResponse(PTPResponse(.ok, transactionID: 5))
        #expect(inner.sent.count == 1)
        #expect(abs(clock.now() - (0.01 + 0.1)) < 1e-9)
    }
}
