import Foundation
import POSIX

/// Replaces what identifies a user in a trace: object names become `name-1.JPG` (the same name always the
/// same placeholder, the extension kept because it tells a file's kind), serial numbers `<serial-1>`,
/// volume labels and other free text `<text-1>`. Thread-safe.
public final class TraceRedactor: Sendable {
    private struct Tables {
        var names: [String: Int] = [:]
        var serials: [String: Int] = [:]
        var texts: [String: Int] = [:]
    }

    private let tables = Locked(Tables())

    public init() {}

    /// A placeholder for an object's name; empty stays empty (an empty name is itself a fact worth seeing).
    public func name(_ name: String) -> String {
        guard !name.isEmpty else { return name }
        let number = tables.withLock { Self.number(for: name, in: &$0.names) }
        return "name-\(number)" + Self.keptExtension(of: name)
    }

    public func serial(_ serial: String) -> String {
        guard !serial.isEmpty else { return serial }
        return "<serial-\(tables.withLock { Self.number(for: serial, in: &$0.serials) })>"
    }

    public func text(_ text: String) -> String {
        guard !text.isEmpty else { return text }
        return "<text-\(tables.withLock { Self.number(for: text, in: &$0.texts) })>"
    }

    private static func number(for key: String, in table: inout [String: Int]) -> Int {
        if let known = table[key] { return known }
        let next = table.count + 1
        table[key] = next
        return next
    }

    /// `.JPG`, `.mp4`: up to five letters or digits after the last dot; anything longer or odd could
    /// itself be part of a name, and is dropped.
    static func keptExtension(of name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        let ext = name[name.index(after: dot)...]
        guard (1...5).contains(ext.count), ext.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else { return "" }
        return "." + ext
    }
}
