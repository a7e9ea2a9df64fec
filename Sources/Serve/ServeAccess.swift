#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif
import POSIX
import PTPIP
import TerminalKit

/// Who the served camera lets in, decided from the GUID an initiator sends in its handshake (PTP/IP has no
/// other identity): everyone (`--open`, or loopback with no choice made), the GUIDs of `--allow`, and with
/// `--pair` whoever the person at serve's terminal lets in, remembered in `PairingBook`. Anyone else is
/// answered Init_Fail "rejected initiator".
struct ServeAccess: Sendable {
    var allowed: Set<[UInt8]> = []
    var open = false
    /// `--pair`: where answers are kept and who asks.
    var pairing: Pairing?

    struct Pairing: Sendable {
        let book: PairingBook
        let prompt: PairingPrompt
    }

    /// Whether `guid` (of `name`, connecting from `address`) is let in; may ask at the terminal.
    func admits(name: String, guid: [UInt8], address: String) -> Bool {
        if open || allowed.contains(guid) { return true }
        guard let pairing else { return false }
        if let known = pairing.book.answer(for: guid) { return known }
        guard let answer = pairing.prompt.ask(name: name, guid: guid, address: address) else { return false }
        do {
            try pairing.book.remember(guid: guid, name: name, allowed: answer)
        } catch {
            Console.error("serve: cannot remember the answer for \(GUIDText.format(guid)) in \(pairing.book.path): \(error)")
        }
        return answer
    }

    /// The answer in the log: which rule let an initiator in.
    func why(_ guid: [UInt8]) -> String {
        if open { return "open to anyone" }
        if allowed.contains(guid) { return "on the allow-list" }
        return "paired"
    }
}

/// The answers given at serve's terminal to `--pair` questions, by GUID: a private file in the user's state
/// folder (`serve/SERIAL.peers`, SERIAL the served camera's serial number), never on the card it serves.
struct PairingBook: Sendable {
    let path: String

    init(path: String) {
        self.path = path
    }

    /// `$XDG_STATE_HOME/mediashell/serve/SERIAL.peers`; nil without a usable home.
    init?(environment: [String: String], serialNumber: String) {
        guard let folder = StateLocation.folder(environment: environment) else { return nil }
        let safe = serialNumber.filter { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
        path = "\(folder)/serve/\(safe.isEmpty ? "camera" : safe).peers"
    }

    /// True (let in) or false (refused) when the GUID was answered before; nil when it was not.
    func answer(for guid: [UInt8]) -> Bool? {
        let key = GUIDText.format(guid)
        for line in lines() {
            let fields = line.split(separator: " ", maxSplits: 2)
            guard fields.count >= 2, fields[1] == key else { continue }
            return fields[0] == "allow"
        }
        return nil
    }

    /// Keeps an answer (the latest for a GUID replaces an earlier one): `allow GUID NAME` or `deny GUID NAME`.
    func remember(guid: [UInt8], name: String, allowed: Bool) throws(SystemError) {
        let key = GUIDText.format(guid)
        var kept = lines().filter { $0.split(separator: " ", maxSplits: 2).dropFirst().first.map(String.init) != key }
        kept.append("\(allowed ? "allow" : "deny") \(key) \(name.filter { !$0.isNewline && $0 != "\r" })")
        try PrivateFile.replace(path, with: kept.joined(separator: "\n") + "\n")
    }

    private func lines() -> [String] {
        ((try? PrivateFile.text(at: path)) ?? nil).map { $0.split(separator: "\n").map(String.init) } ?? []
    }
}

/// Asks the person at serve's terminal whether to let an unknown initiator in: one question at a time,
/// answered by a line on standard input (`y` lets in, anything else refuses), within `seconds`; no answer
/// refuses without remembering. Ends at once (refusing) once `stop` was called.
final class PairingPrompt: Sendable {
    let seconds: Double
    private let turn = Locked.turn()
    private let stopped = Locked(false)

    init(seconds: Double = 60) {
        self.seconds = seconds
    }

    func stop() { stopped.withLock { $0 = true } }

    /// True (let in), false (refused), nil (no answer in time, or serve stopping).
    func ask(name: String, guid: [UInt8], address: String) -> Bool? {
        turn.withLock { _ in
            if stopped.withLock({ $0 }) { return nil }
            Console.error(
                "serve: '\(SafeText.display(name))' (GUID \(GUIDText.format(guid))) at \(address) asks to connect."
                    + " Let it in? [y/N] (waiting up to \(Int(seconds)) s)")
            guard let line = readLine(within: seconds) else {
                Console.error("serve: no answer for \(GUIDText.format(guid)): refused this time")
                return nil
            }
            let answer = ["y", "yes"].contains(line.filter { !$0.isWhitespace }.lowercased())
            Console.error("serve: \(GUIDText.format(guid)) \(answer ? "let in" : "refused"), remembered")
            return answer
        }
    }

    /// A line from standard input, read a byte at a time so nothing after it is taken; nil at its end, after
    /// `seconds`, or once stopped (looked at every 200 ms).
    private func readLine(within seconds: Double) -> String? {
        let deadline = Deadline.after(seconds)
        var bytes: [UInt8] = []
        while !deadline.hasPassed, !stopped.withLock({ $0 }) {
            let slice = Deadline.after(min(0.2, max(deadline.remaining, 0)))
            guard let ready = try? pollDescriptors([0], events: .readable, deadline: slice) else { return nil }
            guard let events = ready.first, !events.isEmpty else { continue }
            var byte: UInt8 = 0
            let count = read(0, &byte, 1)
            if count <= 0 { return nil }
            if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            if bytes.count < 256 { bytes.append(byte) }
        }
        return nil
    }
}

extension PTPIPPeerInfo {
    /// A GUID as 32 hexadecimal digits.
    static func text(_ guid: [UInt8]) -> String {
        PTPIPPeerInfo(name: "", guid: guid, address: "", connectionNumber: 0, protocolVersion: 0).guidText
    }
}
