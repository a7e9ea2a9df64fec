import Foundation
import TestSupport

/// Debian's umtp-responder (a third-party MTP responder written for Linux USB gadgets) served as a PTP/IP
/// camera by `../shared/peers/serve-umtp.sh`, which fakes FunctionFS for it. The peer serves a scratch copy
/// of a card (it really deletes), on a port chosen at run time, and is stopped by its PID.
/// Enabled by MEDIASHELL_UMTP_PEERS (the folder holding serve-umtp.sh), which `scripts/test` sets when
/// `../shared/peers` is there.
final class UMTPPeer: @unchecked Sendable {
    static var peersFolder: String? {
        guard let folder = ProcessInfo.processInfo.environment["MEDIASHELL_UMTP_PEERS"], !folder.isEmpty else { return nil }
        return folder
    }
    static var isEnabled: Bool { peersFolder != nil }
    static let responder = "/usr/bin/umtprd"

    let card: String
    let port: UInt16
    private let process = Process()
    private let exited = Mailbox<Void>()
    private let output = PipeCollector()

    /// Starts the peer on a copy of `source`; `hiddenOperations` are dropped from its DeviceInfo by the
    /// bridge. Returns once the bridge says it listens (bounded), or throws with its log.
    init(serving source: String, scratch: String, hiddenOperations: [UInt16] = []) throws {
        guard let folder = Self.peersFolder else { throw PeerFailed(log: "MEDIASHELL_UMTP_PEERS is not set") }
        card = scratch + "/card"
        try FileManager.default.copyItem(atPath: source, toPath: card)
        port = try Self.freePort()
        let exited = self.exited
        process.terminationHandler = { _ in exited.put(()) }
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [folder + "/serve-umtp.sh", card, String(port), Self.responder, scratch + "/run"]
        var environment = ProcessInfo.processInfo.environment
        environment["BRIDGE_OPTS"] = hiddenOperations.map { "--hide-op 0x" + String($0, radix: 16) }.joined(separator: " ")
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output.pipe
        process.standardError = output.pipe
        try process.run()
        guard waitForLog("listening on 127.0.0.1:\(port)", timeout: 60) else {
            stop()
            throw PeerFailed(log: log)
        }
    }

    deinit { stop() }

    var log: String { output.text }
    var url: String { "ptpip:127.0.0.1:\(port)" }

    /// Waits (up to `timeout`) until the peer's log holds `text`, or it exited.
    func waitForLog(_ text: String, timeout: TimeInterval) -> Bool { output.wait(for: text, timeout: timeout) }

    /// SIGTERM to the bridge (its responder dies with it), then SIGKILL if it has not gone within 10 s.
    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)
        if exited.take(timeout: 10) == nil {
            kill(process.processIdentifier, SIGKILL)
            _ = exited.take(timeout: 5)
        }
    }

    /// A port no one listens on now: bound to 0, read back, released (serve-umtp.sh wants a number).
    static func freePort() throws -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw PeerFailed(log: "socket: errno \(errno)") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else { throw PeerFailed(log: "bind: errno \(errno)") }
        return UInt16(bigEndian: address.sin_port)
    }
}

struct PeerFailed: Error, CustomStringConvertible {
    let log: String
    var description: String { "the umtp-responder peer did not start:\n\(log)" }
}
