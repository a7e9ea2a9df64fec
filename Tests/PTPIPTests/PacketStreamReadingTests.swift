import Foundation
import POSIX
import PTP
@testable import PTPIP
import Testing

/// The reader takes packets out of what it received, however the bytes were cut on the way: packets sent
/// together, a packet cut into single bytes, a payload larger than any buffer, a peer that hangs up.
@Suite struct PacketStreamReading {
    /// A small file's answer as a responder sends it: Start_Data, End_Data with the bytes, the response.
    static func answer(id: UInt32, payload: [UInt8]) -> [UInt8] {
        PTPIPPacket.startData(transactionID: id, totalLength: UInt64(payload.count)).encoded()
            + PTPIPPacket.endData(transactionID: id, payload: payload).encoded()
            + PTPIPPacket.commandResponse(PTPResponse(.ok, transactionID: id)).encoded()
    }

    /// Sends `bytes` from a thread of its own (a socket pair holds less than a large payload), `step`
    /// bytes per send, then closes the socket when `close` is set.
    static func send(_ bytes: [UInt8], on socket: Socket, step: Int, close: Bool = false) throws -> JoinableThread {
        try JoinableThread(name: "sender") {
            var offset = 0
            while offset < bytes.count {
                let end = min(offset + step, bytes.count)
                do { try bytes[offset..<end].withUnsafeBytes { try socket.send($0, .eachWait(10)) } } catch { return }
                offset = end
            }
            if close { socket.shutdown() }
        }
    }

    @Test func packetsSentTogetherAreReadInOrderAndASmallPayloadComesInOnePiece() throws {
        let (near, far) = try Socket.pair()
        defer { near.close(); far.close() }
        let payload = (0..<65536).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        try (Self.answer(id: 1, payload: payload) + Self.answer(id: 2, payload: [9, 8, 7])).withUnsafeBytes {
            try far.send($0, .eachWait(10))
        }
        let stream = PacketStream(socket: near, timeout: 10)
        let first = try Self.readStartAndAnswer(stream, id: 1, total: 65536)
        #expect(first.payload == payload)
        #expect(first.pieces == 1)
        // The second answer was received with the first: it is there without the socket having anything.
        #expect(try stream.hasInput(timeout: 0))
        let second = try Self.readStartAndAnswer(stream, id: 2, total: 3)
        #expect(second.payload == [9, 8, 7])
        #expect(try !stream.hasInput(timeout: 0))
    }

    @Test func packetsCutIntoSingleBytesAreReadWhole() throws {
        let (near, far) = try Socket.pair()
        defer { near.close(); far.close() }
        let payload = (0..<3000).map { UInt8(truncatingIfNeeded: $0) }
        let sender = try Self.send(Self.answer(id: 5, payload: payload), on: far, step: 1)
        defer { sender.join() }
        let stream = PacketStream(socket: near, timeout: 10)
        let answer = try Self.readStartAndAnswer(stream, id: 5, total: 3000)
        #expect(answer.payload == payload)
    }

    @Test func aPayloadLargerThanTheBufferComesInChunksOfAtMostAMebibyte() throws {
        let (near, far) = try Socket.pair()
        defer { near.close(); far.close() }
        let size = PacketStream.chunkSize * 2 + 12345
        let payload = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ ($0 >> 16)) }
        let sender = try Self.send(Self.answer(id: 3, payload: payload), on: far, step: 300_000)
        defer { sender.join() }
        let stream = PacketStream(socket: near, timeout: 10)
        let answer = try Self.readStartAndAnswer(stream, id: 3, total: UInt64(size))
        #expect(answer.payload == payload)
        #expect(answer.pieces == 3)
    }

    @Test func aPeerThatHangsUpInAHeaderIsACutConnectionAndBetweenPacketsTheEnd() throws {
        let (near, far) = try Socket.pair()
        defer { near.close(); far.close() }
        let ping = PTPIPPacket.ping.encoded()
        try (ping + ping.prefix(5)).withUnsafeBytes { try far.send($0, .eachWait(10)) }
        far.shutdown()
        let stream = PacketStream(socket: near, timeout: 10)
        #expect(try stream.readControl(firstByteTimeout: 5) == .ping)
        #expect {
            _ = try stream.read(firstByteTimeout: 5)
        } throws: { error in
            guard case PTPError.connectionClosed(.cutShort(_, .header("a packet header", received: 5))) = error else { return false }
            return true
        }

        let (quiet, other) = try Socket.pair()
        defer { quiet.close(); other.close() }
        try ping.withUnsafeBytes { try other.send($0, .eachWait(10)) }
        other.shutdown()
        let ending = PacketStream(socket: quiet, timeout: 10)
        #expect(try ending.readControl(firstByteTimeout: 5) == .ping)
        #expect(try ending.read(firstByteTimeout: 5) == nil)
    }

    @Test func aPeerThatHangsUpInAPayloadSaysHowMuchCame() throws {
        let (near, far) = try Socket.pair()
        defer { near.close(); far.close() }
        let whole = PTPIPPacket.endData(transactionID: 1, payload: [UInt8](repeating: 1, count: 100)).encoded()
        try whole.prefix(12 + 40).withUnsafeBytes { try far.send($0, .eachWait(10)) }
        far.shutdown()
        let stream = PacketStream(socket: near, timeout: 10)
        guard case .dataHead(true, 1, 100)? = try stream.read(firstByteTimeout: 5) else {
            Issue.record("no End_Data head")
            return
        }
        #expect {
            try stream.readPayload(100) { _ in }
        } throws: { error in
            guard case PTPError.connectionClosed(.cutShort(_, .packet(_, received: 40, expected: 100))) = error else { return false }
            return true
        }
    }

    @Test func nothingAtAllIsATimeoutNamingTheWait() throws {
        let (near, far) = try Socket.pair()
        defer { near.close(); far.close() }
        let stream = PacketStream(socket: near, timeout: 10)
        #expect {
            _ = try stream.read(firstByteTimeout: 0.01)
        } throws: { error in
            guard case PTPError.timeout(let wait) = error else { return false }
            return wait.awaited == .firstByte(purpose: nil) && wait.seconds == 0.01
        }
    }

    /// Sizes around the packet boundaries: none, one byte, a small file, exactly one packet, one more.
    @Test(arguments: [0, 1, 65536, PacketStream.chunkSize, PacketStream.chunkSize + 1])
    func aDataPhaseWrittenIsReadBackWhole(size: Int) throws {
        let (near, far) = try Socket.pair()
        defer { near.close(); far.close() }
        let payload = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 5) }
        let writer = PacketStream(socket: far, timeout: 10)
        let thread = try JoinableThread(name: "writer") {
            _ = try? writer.writeDataPhase(transactionID: 8, source: BufferSource(payload))
            try? writer.write(.commandResponse(PTPResponse(.ok, transactionID: 8)))
        }
        defer { thread.join() }
        let answer = try Self.readStartAndAnswer(PacketStream(socket: near, timeout: 10), id: 8, total: UInt64(size))
        #expect(answer.payload == payload)
        #expect(answer.pieces == (size + PacketStream.chunkSize - 1) / PacketStream.chunkSize)
    }

    /// Start_Data (checked), then the data and the response.
    static func readStartAndAnswer(_ stream: PacketStream, id: UInt32, total: UInt64) throws -> (payload: [UInt8], pieces: Int) {
        #expect(try stream.readControl(firstByteTimeout: 5) == .startData(transactionID: id, totalLength: total))
        var payload: [UInt8] = []
        var pieces = 0
        while true {
            switch try stream.read(firstByteTimeout: 5) {
            case .dataHead(_, let transactionID, let length)?:
                #expect(transactionID == id)
                try stream.readPayload(length) { chunk in
                    #expect(chunk.count <= PacketStream.chunkSize)
                    payload += chunk
                    pieces += 1
                }
            case .control(.commandResponse(let response))?:
                #expect(response == PTPResponse(.ok, transactionID: id))
                return (payload, pieces)
            case let other:
                Issue.record("unexpected \(String(describing: other))")
                return (payload, pieces)
            }
        }
    }
}
