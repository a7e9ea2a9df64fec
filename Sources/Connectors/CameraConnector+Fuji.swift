import Foundation
import FujiWiFi
import MediaManager
import POSIX
import PTP

extension CameraConnector {
    /// A Fujifilm X body on Wi-Fi: Fuji's init exchange on `port`, then containers; the event socket is
    /// connected by the transport once capture mode opens it, the live-view socket (`liveViewPort`, nil:
    /// the port after the event port) by live view.
    static func openFuji(
        host: String, port: UInt16, eventPort: UInt16, liveViewPort: UInt16?, url: CameraURL, options: Options
    ) throws -> Camera {
        let timeouts = FujiTimeouts(connect: options.timeout, read: options.timeout, handshake: options.timeout)
        let transport: FujiInitiator
        do {
            transport = try FujiInitiator.connect(
                host: host, port: port, eventPort: eventPort, name: options.identity.name, guid: options.identity.guid,
                timeouts: timeouts,
                trace: options.trace)
        } catch FujiWiFiError.refused(_, let reason) {
            throw CameraOpenError.fujifilmRefused(host: host, reason: reason)
        }
        // A body that answers GetDeviceInfo with nothing (an X-T4, libgphoto2 notes) gets Fuji's usual one.
        return try Camera(
            transport: FujiDeviceInfoSubstitute(options.traced(transport), model: transport.deviceName), location: url.description,
            dialect: FujiXDialect(
                accessTimeout: max(options.timeout, 30),
                openLiveView: { [liveViewPort = liveViewPort ?? (eventPort == .max ? eventPort : eventPort + 1)] in
                    FujiLiveViewSocket(try FujiLiveViewStream.connect(host: host, port: liveViewPort, timeouts: timeouts))
                }))
    }

    /// `fuji:HOST:PORT`, its events on the next port.
    static func fujiURL(_ host: String, port: UInt16) -> CameraURL {
        .fuji(host: host, port: port, eventPort: port == .max ? port : port + 1)
    }

    /// Where a Fujifilm body may be, after PTP/IP failed with `error` on `port`: that port itself when the peer
    /// hung up on Init_Command_Request (what a body does with a request that is not Fuji's), and Fuji's own
    /// port (`options.fujiPort`).
    static func fujiCandidatePorts(after error: PTPError, port: UInt16, options: Options) -> [UInt16] {
        var ports: [UInt16] = []
        if case .connectionClosed(.hungUpInsteadOfAnswering) = error { ports.append(port) }
        if options.fujiPort != port { ports.append(options.fujiPort) }
        return ports
    }

    /// True when `host:port` answers Fuji's init request as a Fujifilm body does: its acknowledgement of
    /// exactly 0x44 bytes, or Init_Fail (a body that does not let this computer in). A port that takes the
    /// connection and says nothing within two seconds, hangs up or answers anything else is not one. The
    /// connection is closed at once, nothing more sent.
    static func answersFujiHandshake(_ host: String, port: UInt16, options: Options) -> Bool {
        let seconds = min(options.timeout, 2)
        let answer = Locked<[UInt8]?>(nil)
        do {
            let probe = try FujiInitiator.connect(
                host: host, port: port, eventPort: nil, name: options.identity.name, guid: options.identity.guid,
                timeouts: FujiTimeouts(connect: seconds, read: seconds, handshake: seconds), trace: options.trace,
                observe: { step in
                    if case .receivedAnswer(let bytes) = step { answer.withLock { $0 = bytes } }
                })
            probe.close()
            return answer.withLock { $0 }?.count == FujiHandshake.acknowledgeLength
        } catch is FujiWiFiError {
            return true
        } catch {
            return false
        }
    }
}

/// A Fujifilm body's live-view socket as the Fuji dialect reads it.
struct FujiLiveViewSocket: FujiLiveViewChannel {
    let stream: FujiLiveViewStream
    init(_ stream: FujiLiveViewStream) { self.stream = stream }
    func nextPacket(wait: TimeInterval) throws -> [UInt8]? { try stream.nextPacket(wait: wait) }
    func close() { stream.close() }
}
