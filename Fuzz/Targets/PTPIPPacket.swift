// libFuzzer target: PTP/IP packets, one at a time (PTPIPPacket, PTPIPHeader) and as a stream read from a
// socket (PacketStream: headers, control packets, data payloads streamed in pieces), as a device's bytes
// arrive on the command and event sockets.
// Built and run by scripts/fuzz; not part of `swift build`.
import POSIX
import PTP

@testable import PTPIP

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPTPIPPacket(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    if let packet = try? PTPIPPacket(decoding: bytes) { _ = packet.encoded() }
    _ = try? PTPIPHeader(decoding: bytes)
    // The same bytes as a socket delivers them: every packet read until the end or an error.
    guard bytes.count <= 1 << 16, let (device, host) = try? Socket.pair() else { return 0 }
    defer {
        device.close()
        host.close()
    }
    do {
        try device.send(bytes, .eachWait(1))
    } catch {
        return 0
    }
    device.shutdownWrite()
    let stream = PacketStream(socket: host, timeout: 1)
    var packets = 0
    while packets < 1000 {
        packets += 1
        do {
            guard let incoming = try stream.read(firstByteTimeout: 1) else { break }
            if case .dataHead(_, _, let length) = incoming {
                var received = 0
                try stream.readPayload(length) { received += $0.count }
                if received != length { fatalError("a payload of \(length) bytes delivered \(received)") }
            }
        } catch {
            break
        }
    }
    return 0
}
