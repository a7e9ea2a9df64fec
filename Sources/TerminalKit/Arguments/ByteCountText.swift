/// Byte counts as people type them on a command line or in a setting.
public enum ByteCountText {
    /// `2500`, `500k`, `20M`, `1.5G` (decimal units, an optional trailing `B`, `/s` or `B/s`).
    public static func parse(_ text: String) -> UInt64? {
        var digits = Substring(text.lowercased())
        for suffix in ["/s", "b"] where digits.hasSuffix(suffix) { digits = digits.dropLast(suffix.count) }
        var multiplier: Double = 1
        if let unit = digits.last, let scale = ["k": 1e3, "m": 1e6, "g": 1e9][unit] {
            multiplier = scale
            digits = digits.dropLast()
        }
        guard !digits.isEmpty, digits.allSatisfy({ $0.isNumber || $0 == "." }), let number = Double(digits),
            number.isFinite, number * multiplier < 1e15
        else { return nil }
        return UInt64(number * multiplier)
    }
}
