import Foundation
@testable import FujiWiFi
import POSIX
import PTP
import TestSupport
import Testing

/// Every test that opens sockets or starts threads lives in this suite (or one nested in it), so they run
/// one at a time.
@Suite(.serialized, .tags(.port), .notInFastRun) struct FujiNetwork {}

/// A deterministic byte pattern, so any size can be produced and checked without holding it twice.
func patternByte(_ index: UInt64) -> UInt8 {
    UInt8(truncatingIfNeeded: (index &* 2_654_435_761) >> 11 ^ index)
}

func pattern(_ count: Int) -> [UInt8] { (0..<UInt64(count)).map(patternByte) }

/// A camera played by the test, byte by byte: listens on a port the system chose, accepts one host, and
/// lets the test read what it sent and write any bytes back, cut wherever the test likes.
final class ScriptedCamera: Sendable {
    let listener: Socket
    var port: UInt16 { listener.localPort }

    init() throws {
        listener = try Socket.listen(host: "127.0.0.1", port: 0)
    }

    /// The next host's socket (bounded: the test connects first, on another thread).
    func accept() throws -> Socket {
        guard try listener.waitReadable(deadline: .after(10)) else { throw PTPError.timeout(.init(peer: "a Fuji host", seconds: 10, awaited: .firstByte(purpose: "a connection"))) }
        guard let socket = try listener.accept() else { throw PTPError.connectionClosed(.closedHere(transport: nil, peer: "the test's listener", during: nil)) }
        return socket
    }

    func close() { listener.close() }
}

extension Socket {
    /// Exactly `count` bytes (bounded per wait).
    func read(_ count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let got = try bytes.withUnsafeMutableBytes { try receive(into: $0, .eachWait(10)) }
        guard got == count else { throw PTPError.connectionClosed(.cutShort(peer: peer, .body(what: "what the test awaited", received: got, expected: count))) }
        return bytes
    }

    /// Sends `bytes` in the pieces `cuts` gives (offsets where a new send starts).
    func send(_ bytes: [UInt8], cutAt cuts: [Int]) throws {
        var start = 0
        for cut in (cuts.filter { $0 > 0 && $0 < bytes.count }.sorted() + [bytes.count]) where cut > start {
            try send(Array(bytes[start..<cut]), .eachWait(10))
            start = cut
        }
    }

    /// Reads one container the host sent (its header and body).
    func readContainer() throws -> (header: ContainerHeader, body: [UInt8]) {
        let head = try read(ContainerHeader.size)
        let header = try head.withUnsafeBytes { try ContainerHeader(fuji: $0) }
        return (header, try read(Int(header.payloadLength)))
    }
}

/// Runs `body` on a thread of its own; `result()` waits (bounded) for what it returned or threw.
final class Background<T: Sendable>: Sendable {
    private let box = Mailbox<Result<T, Error>>()

    init(_ body: @escaping @Sendable () throws -> T) {
        let box = self.box
        Thread { box.put(Result { try body() }) }.start()
    }

    func result(timeout: Double = 20) throws -> T {
        guard let result = box.take(timeout: timeout) else { throw PTPError.timeout(.init(peer: "the background work", seconds: timeout, awaited: .message)) }
        return try result.get()
    }
}

/// The camera's answer to the init request, as a camera sends it.
let cameraAnswer = FujiHandshake.acknowledge(guid: Array(repeating: 0xAB, count: 16), name: "X-T20")

/// A response container.
func responseBytes(_ code: ResponseCode = .ok, transactionID: UInt32, parameters: [UInt32] = []) -> [UInt8] {
    ContainerCodec.response(PTPResponse(code, transactionID: transactionID, parameters: parameters))
}

/// A data container carrying `payload`.
func dataBytes(code: UInt16, transactionID: UInt32, payload: [UInt8]) throws -> [UInt8] {
    try FujiContainer.dataHeader(code: code, transactionID: transactionID, payloadLength: UInt64(payload.count)) + payload
}

/// Connects a `FujiInitiator` to a scripted camera: returns both ends once the camera answered the request.
func connectScripted(
    _ camera: ScriptedCamera, answer: [UInt8] = cameraAnswer, cuts: [Int] = [], timeouts: FujiTimeouts = FujiTimeouts(connect: 5, read: 10),
    steps: Mailbox<FujiHandshakeStep>? = nil
) throws -> (FujiInitiator, Socket) {
    let port = camera.port
    let connecting = Background {
        try FujiInitiator.connect(host: "127.0.0.1", port: port, eventPort: nil, name: "tester", timeouts: timeouts) { step in
            steps?.put(step)
        }
    }
    let socket = try camera.accept()
    let request = try socket.read(FujiHandshake.requestLength)
    #expect(try FujiHandshake.decodeRequest(request).name == "tester")
    try socket.send(answer, cutAt: cuts)
    return (try connecting.result(), socket)
}

/// A responder for loopback tests over `FujiServer`: GetObject (0x1009) sends `count` pattern bytes (the
/// first parameter), SetDevicePropValue takes a data phase and answers its length, InitiateOpenCapture
/// answers OK then sends ObjectAdded (handle 7) on the event socket; anything else answers OK.
func loopbackHandler(received: Mailbox<[UInt8]>) -> FujiServer.Handler {
    { connection, _ in
        while let incoming = try connection.receiveCommand() {
            let command = incoming.command
            var parameters: [UInt32] = []
            if incoming.hasDataOut {
                let bytes = try connection.receiveData(transactionID: command.transactionID, limit: 1 << 20)
                received.put(bytes)
                parameters = [UInt32(bytes.count)]
            } else if command.code == .getObject {
                try connection.sendData(
                    transactionID: command.transactionID, source: BufferSource(pattern(Int(command.parameter(0)))))
            }
            try connection.sendResponse(PTPResponse(.ok, transactionID: command.transactionID, parameters: parameters))
            if command.code == .initiateOpenCapture {
                try connection.sendEvent(PTPEvent(.objectAdded, transactionID: command.transactionID, parameters: [7]))
            }
        }
    }
}
