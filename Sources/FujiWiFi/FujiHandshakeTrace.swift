import Foundation
import PTP

/// What `--debug-ptp` records of opening a Fuji Wi-Fi connection, as PTP/IP's opening is recorded: each TCP
/// connection (the command socket, and the event socket InitiateOpenCapture opens), the init request and
/// the camera's answer, and what an opening that failed was waiting for. The containers after it are
/// recorded by `TracingTransport`. GUIDs and names are replaced when the trace redacts.
struct FujiHandshakeTrace: Sendable {
    let trace: PTPTrace?

    func connecting(_ peer: String, socket: String) {
        trace?.record(.toDevice, "connect", "TCP to \(peer) (\(socket) socket)")
    }

    func sent(request bytes: [UInt8], to peer: String) {
        guard let trace else { return }
        let fields = (try? FujiHandshake.decodeRequest(bytes)).map { ": guid \(shown($0.guid)) name \(quoted($0.name))" } ?? ""
        trace.record(.toDevice, "init", "Fuji init request (\(bytes.count) bytes, magic 0x8F53E4F2) to \(peer)\(fields)")
    }

    func received(answer bytes: [UInt8], from peer: String) {
        guard let trace else { return }
        switch try? FujiHandshake.decodeAnswer(bytes) {
        case .accepted(let guid, let name)?:
            trace.record(.fromDevice, "init", "Fuji init answer (\(bytes.count) bytes) from \(peer): guid \(shown(guid)) name \(quoted(name))")
        case .refused(let reason)?:
            trace.record(.fromDevice, "init", "Init_Fail from \(peer): reason \(reason)")
        case nil:
            trace.record(.fromDevice, "init", "\(bytes.count) bytes from \(peer), not a Fuji init answer")
        }
    }

    func eventSocket(_ outcome: String) {
        trace?.record(.toDevice, "connect", outcome)
    }

    func failed(_ error: Error) {
        trace?.record(.failure, "error", "\(error)")
    }

    private func shown(_ guid: [UInt8]) -> String {
        let hex = guid.map { String(format: "%02X", $0) }.joined()
        return trace?.redactor?.serial(hex) ?? hex
    }

    private func quoted(_ text: String) -> String {
        let name = trace?.redactor?.text(text) ?? text
        return "\"" + name.unicodeScalars.map { $0.value < 0x20 || $0 == "\"" ? "\\u{\(String($0.value, radix: 16))}" : String($0) }.joined() + "\""
    }
}
