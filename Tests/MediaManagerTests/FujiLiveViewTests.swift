import Connectors
import Foundation
import FujiWiFi
import POSIX
import PTP
import TestSupport
import Testing
import VirtualCamera

@testable import MediaManager

/// Live view on a Fujifilm X body on Wi-Fi (issue 42): our client against the fuji-x persona served in this
/// process over loopback (its frames on Fuji's live-view socket, ports chosen at run time), every frame once
/// and in order; the live-view socket's bytes read as hostile.
@Suite(.serialized, .tags(.port), .notInFastRun) struct FujiLiveViewTests {
    /// The fuji-x persona with a live-view port streaming `frames` (nil: frames that never come).
    final class Body: @unchecked Sendable {
        let server: FujiServer
        let card: CardFolder

        init(frames: LiveViewFrames?, persona: Persona = .named(.fujiX)) throws {
            card = try CardFolder(["DCIM/100_FUJI/DSCF0001.JPG": 100])
            let served = try Card(folder: card.path)
            // A body that can take a picture lists InitiateOpenCapture, which opens its live-view port.
            try DemoCard.enableCapture(on: served)
            let camera = VirtualCamera(card: served, persona: persona)
            let feed = FujiLiveViewFeed(interval: 1 / (frames?.framesPerSecond ?? 20)) { last in frames?.frame(after: last) }
            server = FujiServer(host: "127.0.0.1", port: 0, eventPort: 0, liveViewPort: 0, liveView: feed, name: "X-T20") { connection, peer in
                camera.serve(connection, peer: peer.address)
            }
            try server.start()
        }

        var url: CameraURL {
            .fuji(host: "127.0.0.1", port: server.port, eventPort: server.eventPort, liveViewPort: server.liveViewPort)
        }

        deinit { server.stop() }
    }

    @Test func everyFrameComesOnceAndInOrderAndAgainAfterAStop() throws {
        let body = try Body(frames: LiveViewFrames(framesPerSecond: 40))
        let session = try MediaSession.open(body.url)
        defer { session.close() }
        for _ in 0..<2 {
            let live = try session.camera.startLiveView()
            var numbers: [Int] = []
            for _ in 0..<8 {
                let jpeg = try live.next()
                #expect(jpeg.starts(with: [0xFF, 0xD8, 0xFF]), "the JPEG alone, without Fuji's header")
                numbers += [liveViewFrameNumber(jpeg)].compactMap { $0 }
            }
            live.stop()
            #expect(numbers.count == 8)
            #expect(zip(numbers, numbers.dropFirst()).allSatisfy { $0 < $1 }, "\(numbers)")
        }
        // The session is still in step after live view.
        #expect(try session.camera.session.getStorageIDs().count == 1)
    }

    /// A host that connects live view again before the body saw the last socket close gets frames on the
    /// new socket; the old one is ended.
    @Test func aSecondLiveViewSocketReplacesTheFirst() throws {
        let body = try Body(frames: LiveViewFrames(framesPerSecond: 40))
        let session = try MediaSession.open(body.url)
        defer { session.close() }
        let live = try session.camera.startLiveView()
        defer { live.stop() }
        _ = try live.next()
        let port = try #require(body.server.liveViewPort)
        let second = try FujiLiveViewStream.connect(host: "127.0.0.1", port: port, timeouts: FujiTimeouts(connect: 5, read: 5))
        defer { second.close() }
        let packet = try #require(try second.nextPacket(wait: 5))
        #expect(liveViewFrameNumber(try FujiLiveView.jpeg(in: packet)) != nil)
        #expect(throws: (any Error).self, "the first socket is ended") {
            for _ in 0..<1_000 { _ = try live.next(timeout: 5) }
        }
    }

    @Test func aBodyThatSendsNothingIsATimeout() throws {
        let body = try Body(frames: nil)
        let session = try MediaSession.open(body.url)
        defer { session.close() }
        let live = try session.camera.startLiveView()
        defer { live.stop() }
        #expect(throws: LiveViewError.noFrame(seconds: 0.3)) { _ = try live.next(timeout: 0.3) }
    }

    /// A body in a browsing mode (an X-A2 has no remote mode) refuses capture mode: it has no live view.
    @Test func aBodyWithoutRemoteModeHasNone() throws {
        let body = try Body(frames: LiveViewFrames(), persona: .fujiX(cameraState: 2))
        let session = try MediaSession.open(body.url)
        defer { session.close() }
        #expect(throws: CameraCapabilityError.notOffered("live view")) { _ = try session.camera.startLiveView() }
    }

    @Test func aFujiLinkWithoutALiveViewSocketHasNone() throws {
        let body = try Body(frames: nil)
        let transport = try FujiInitiator.connect(
            host: "127.0.0.1", port: body.server.port, eventPort: nil, name: "t", timeouts: FujiTimeouts(connect: 5, read: 10))
        let camera = try Camera(transport: transport, location: "fuji:", dialect: FujiXDialect())
        defer { camera.close() }
        #expect(throws: CameraCapabilityError.notOffered("live view")) { _ = try camera.startLiveView() }
    }

    /// A body of our own making on a loopback port: sends `bytes` to the host that connects, then keeps
    /// the socket open until the test ends.
    final class HostileBody: @unchecked Sendable {
        let listener: Socket
        let accepted = Mailbox<Socket>()
        private let thread: Thread

        init(_ bytes: [UInt8], thenClose: Bool = false) throws {
            listener = try Socket.listen(host: "127.0.0.1", port: 0)
            let (listener, accepted) = (listener, accepted)
            thread = Thread {
                guard let socket = try? listener.accept() else { return }
                try? socket.send(bytes, .eachWait(5))
                if thenClose { socket.shutdownWrite() }
                accepted.put(socket)
            }
            thread.start()
        }

        func stream() throws -> FujiLiveViewStream {
            try FujiLiveViewStream.connect(host: "127.0.0.1", port: listener.localPort, timeouts: FujiTimeouts(connect: 5, read: 0.5))
        }

        deinit {
            listener.shutdown()
            while let socket = accepted.take(timeout: 0) { socket.close() }
            listener.close()
        }
    }

    static func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }

    /// Packets queued in memory, as a socket's receive buffer holds them.
    final class QueuedPackets: FujiLiveViewChannel {
        let packets: LockedBox<[[UInt8]]>
        init(_ packets: [[UInt8]]) { self.packets = LockedBox(packets) }
        func nextPacket(wait: TimeInterval) throws -> [UInt8]? { packets.mutate { $0.isEmpty ? nil : $0.removeFirst() } }
        func close() {}
    }

    /// A host that reads more slowly than the body sends is given the newest frame, not the oldest queued.
    @Test func theNewestFrameWaitingIsTaken() throws {
        let channel = QueuedPackets((1...3).map { [UInt8(0), UInt8($0)] })
        #expect(try FujiLiveView.newestPacket(channel, wait: 0) == [0, 3])
        #expect(try FujiLiveView.newestPacket(channel, wait: 0) == nil)
        let flood = QueuedPackets((0..<100).map { [UInt8($0)] })
        #expect(try FujiLiveView.newestPacket(flood, wait: 0) == [UInt8(FujiLiveView.maximumPassedOver)], "bounded")
    }

    @Test func theLiveViewSocketsBytesAreCheckedBeforeTheyAreRead() throws {
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xDB, 1, 2, 0xFF, 0xD9]
        // A packet as a body sends it: length, 14 bytes of header, the JPEG.
        let good = try HostileBody(FujiLiveViewFeed.packet(jpeg) + FujiLiveViewFeed.packet(jpeg))
        let stream = try good.stream()
        defer { stream.close() }
        for _ in 0..<2 {
            let packet = try #require(try stream.nextPacket(wait: 5))
            #expect(try FujiLiveView.jpeg(in: packet) == jpeg)
        }
        #expect(try stream.nextPacket(wait: 0.05) == nil, "a body that sends nothing more: no packet, within the wait")

        func failure(_ bytes: [UInt8], thenClose: Bool = false) throws -> PTPError? {
            let body = try HostileBody(bytes, thenClose: thenClose)
            let stream = try body.stream()
            defer { stream.close() }
            do {
                _ = try stream.nextPacket(wait: 5)
                return nil
            } catch let error as PTPError {
                return error
            }
        }
        // A length over the limit is refused before its bytes are read; one under a header's is malformed.
        #expect(try failure(Self.le32(0xFFFF_FFFF)).map { if case .malformed = $0 { true } else { false } } == true)
        #expect(try failure(Self.le32(3)).map { if case .malformed = $0 { true } else { false } } == true)
        // A packet cut short, by a hang-up or by silence, is an error, not a frame.
        #expect(try failure(Self.le32(1_000) + [0xFF, 0xD8], thenClose: true).map { if case .connectionClosed = $0 { true } else { false } } == true)
        #expect(try failure(Self.le32(1_000) + [0xFF, 0xD8])?.isTimeout == true)
        // A packet that holds no JPEG.
        #expect(throws: LiveViewError.self) { _ = try FujiLiveView.jpeg(in: [UInt8](repeating: 0, count: 400) + jpeg) }
        #expect(throws: LiveViewError.self) { _ = try FujiLiveView.jpeg(in: [0xFF, 0xD8]) }
        #expect(throws: LiveViewError.self) { _ = try FujiLiveView.jpeg(in: []) }
    }
}
