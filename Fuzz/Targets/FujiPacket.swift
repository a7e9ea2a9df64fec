// libFuzzer target: Fujifilm's Wi-Fi framing as a camera's bytes arrive on the socket (FujiStream): the
// init answer (Init_Command_Ack or Init_Fail), then USB-style containers: headers, parameters, data
// payloads streamed in pieces. And the init request as a responder decodes it.
// Built and run by scripts/fuzz; not part of `swift build`.
import POSIX
import PTP

@testable import FujiWiFi

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFujiPacket(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    _ = try? FujiHandshake.decodeRequest(bytes)
    _ = try? FujiHandshake.decodeAnswer(bytes)
    _ = bytes.withUnsafeBytes { try? ContainerHeader(fuji: $0) }
    guard bytes.count <= 1 << 16, let (camera, host) = try? Socket.pair() else { return 0 }
    defer {
        camera.close()
        host.close()
    }
    do {
        try camera.send(bytes, .eachWait(1))
    } catch {
        return 0
    }
    camera.shutdownWrite()
    let stream = FujiStream(socket: host, timeout: 1)
    do {
        guard let answer = try stream.readHandshakePacket(firstByteTimeout: 1, what: "the init answer") else { return 0 }
        _ = try? FujiHandshake.decodeAnswer(answer)
        for _ in 0..<1000 {
            guard let header = try stream.readHeader(firstByteTimeout: 1, waitingFor: "a container") else { break }
            if header.kind == .data {
                var received: UInt64 = 0
                try stream.readPayload(header.payloadLength) { received += UInt64($0.count) }
                if received != header.payloadLength { fatalError("a payload of \(header.payloadLength) bytes delivered \(received)") }
            } else {
                _ = try stream.readParameters(header)
            }
        }
    } catch {
        return 0
    }
    return 0
}
