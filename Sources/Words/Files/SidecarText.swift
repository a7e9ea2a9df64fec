import TextKit

/// A text sidecar (`.SRT`, `.TXT`) as `cat` prints it.
public enum SidecarText {
    /// Its lines, each without its CR and made safe to print; nil when the bytes are not text (UTF-8 without
    /// NUL or control characters other than tab, CR and LF).
    public static func lines(_ bytes: [UInt8]) -> [String]? {
        guard let text = text(bytes) else { return nil }
        return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast(text.hasSuffix("\n") ? 1 : 0).map {
            SafeText.display(String($0.hasSuffix("\r") ? $0.dropLast() : $0))
        }
    }

    /// The bytes as text: UTF-8 without NUL or control characters other than tab, CR and LF.
    static func text(_ bytes: [UInt8]) -> String? {
        guard !bytes.contains(where: { $0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }) else { return nil }
        return String(validating: bytes, as: UTF8.self)
    }
}
