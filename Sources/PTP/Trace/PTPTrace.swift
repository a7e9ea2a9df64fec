import Foundation
import POSIX

/// A record of every container a session exchanges with a device, one line each, for `--debug-ptp FILE`:
/// what a user attaches when a camera misbehaves. Commands, data phases (length and first bytes, and the
/// dataset decoded where the trace knows it), responses, events and transport errors, with the time since
/// the trace began. With `redact`, object names, serial numbers and volume labels are replaced by stable
/// placeholders and the raw bytes of datasets that could hold them are withheld.
/// Thread-safe: events arrive on transport threads while a transaction is running.
public final class PTPTrace: Sendable {
    /// Which way a container went: `>` to the device, `<` from it, `!` a failure of the transport itself.
    public enum Direction: String, Sendable {
        case toDevice = ">"
        case fromDevice = "<"
        case failure = "!"
    }

    /// Bytes of each data phase shown in hex.
    public static let firstBytes = 32
    /// Bytes of a file's content shown when names are redacted: enough to see its kind (JPEG, ftyp, ...).
    public static let redactedContentBytes = 8

    public let redactor: TraceRedactor?
    /// The dialect the device speaks, once its DeviceInfo went by; its lock also serializes whole entries
    /// (a line and its details, written by `write` with the lock held), so lines from two threads never
    /// interleave.
    private let spoken = Locked(VendorDialect.standard)
    private let write: @Sendable (String) -> Void
    private let started = DispatchTime.now()

    /// The dialect operations are named in: set from the device's DeviceInfo as it goes by (a Canon's
    /// 0x9116 is GetEvent, a Nikon's 0x90C7 too).
    public var dialect: VendorDialect {
        get { spoken.withLock { $0 } }
        set { spoken.withLock { $0 = newValue } }
    }

    /// `operation`'s name in the device's dialect.
    public func name(of operation: OperationCode) -> String { dialect.name(of: operation) }

    /// A trace written through `write`, one call per line (tests keep it in memory).
    public init(redact: Bool, write: @escaping @Sendable (String) -> Void) {
        redactor = redact ? TraceRedactor() : nil
        self.write = write
    }

    /// A trace written to `path` (created or truncated, readable by its owner only); every line is flushed
    /// as it is written, so a crash or a hang leaves the trace up to that point. Throws the `SystemError` of
    /// the open.
    public convenience init(path: String, redact: Bool) throws {
        let descriptor = try systemCall(.open, path: path) { open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600) }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        self.init(redact: redact) { line in try? handle.write(contentsOf: Data((line + "\n").utf8)) }
    }

    /// A free-form line (`# ...`): the program, the camera opened, what the user asked.
    public func note(_ text: String) {
        emit("# " + text)
    }

    /// One container or packet (a transport's handshake too), or a transport failure, as a line; `details`
    /// are indented lines under it. `kind` is a word of up to 8 letters: `command`, `data`, `init`, `error`.
    public func record(_ direction: Direction, _ kind: String, _ text: String, details: [String] = []) {
        let padded = kind.padding(toLength: 8, withPad: " ", startingAt: 0)
        emit("\(timestamp()) \(direction.rawValue) \(padded) \(text)", details: details)
    }

    private func timestamp() -> String {
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        let text = String(format: "%.3f", elapsed)
        return String(repeating: " ", count: max(0, 9 - text.count)) + text
    }

    private func emit(_ line: String, details: [String] = []) {
        spoken.withLock { _ in
            write(line)
            for detail in details { write("          " + detail) }
        }
    }
}
