import Foundation
import PTP

/// What `--debug-ptp` records of opening a PTP/IP connection: each TCP connection, each Init packet both
/// ways, and which packet an opening that failed was waiting for. (The containers after it are recorded
/// by `TracingTransport`.) Names and GUIDs are replaced when the trace redacts.
struct PTPIPHandshakeTrace {
    let trace: PTPTrace?

    func connecting(_ peer: String, socket: String) {
        trace?.record(.toDevice, "connect", "TCP to \(peer) (\(socket) socket)")
    }

    func sent(_ packet: PTPIPPacket, to peer: String) {
        trace?.record(.toDevice, "init", "\(packet.type) to \(peer)" + details(packet))
    }

    func received(_ packet: PTPIPPacket, from peer: String) {
        trace?.record(.fromDevice, "init", "\(packet.type) from \(peer)" + details(packet))
    }

    func failed(_ error: Error) {
        trace?.record(.failure, "error", "\(error)")
    }

    private func details(_ packet: PTPIPPacket) -> String {
        let redactor = trace?.redactor
        switch packet {
        case .initCommandRequest(let guid, let name, let version):
            return ": guid \(shown(guid)) name \(quoted(redactor?.text(name) ?? name)) version \(Self.version(version))"
        case .initCommandAck(let number, let guid, let name, let version):
            return ": connection \(number) guid \(shown(guid)) name \(quoted(redactor?.text(name) ?? name))"
                + (version.map { " version \(Self.version($0))" } ?? "")
        case .initEventRequest(let number): return ": connection \(number)"
        case .initFail(let reason): return ": reason \(reason)"
        default: return ""
        }
    }

    private func shown(_ guid: [UInt8]) -> String {
        let hex = guid.map { String(format: "%02X", $0) }.joined()
        return trace?.redactor?.serial(hex) ?? hex
    }

    private func quoted(_ text: String) -> String {
        "\"" + text.unicodeScalars.map { $0.value < 0x20 || $0 == "\"" ? "\\u{\(String($0.value, radix: 16))}" : String($0) }.joined() + "\""
    }

    static func version(_ value: UInt32) -> String { "\(value >> 16).\(value & 0xFFFF)" }
}
