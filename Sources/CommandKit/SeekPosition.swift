/// Where `seek` goes: an absolute time, a jump relative to now, or a share of the length.
public enum SeekPosition: Sendable, Hashable {
    case absolute(seconds: Double)
    case relative(seconds: Double)
    case percent(Double)

    /// Parses `12.5`, `1:02.5`, `1:02:03`, `+5`, `-1:30`, `50%`; nil for anything else.
    public init?(_ text: String) {
        guard !text.isEmpty, text.utf8.count <= 32 else { return nil }
        if text.hasSuffix("%") {
            guard let value = Self.decimal(text.dropLast()), value <= 100 else { return nil }
            self = .percent(value)
            return
        }
        if let sign = text.first, sign == "+" || sign == "-" {
            guard let seconds = Self.clock(text.dropFirst()) else { return nil }
            self = .relative(seconds: sign == "-" ? -seconds : seconds)
            return
        }
        guard let seconds = Self.clock(Substring(text)) else { return nil }
        self = .absolute(seconds: seconds)
    }

    /// `s(.f)`, `m:ss(.f)` or `h:mm:ss(.f)`; every field but the first below 60.
    private static func clock(_ text: Substring) -> Double? {
        let fields = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(fields.count) else { return nil }
        var total = 0.0
        for (index, field) in fields.enumerated() {
            let isLast = index == fields.count - 1
            let value: Double?
            if isLast {
                value = decimal(field)
            } else {
                value = field.allSatisfy(\.isASCIIDigit) && !field.isEmpty ? Double(String(field)) : nil
            }
            guard let value else { return nil }
            if index > 0 {
                guard value < 60, field.prefix(while: \.isASCIIDigit).count == 2 else { return nil }
            }
            total = total * 60 + value
        }
        return total
    }

    /// Digits with an optional fraction: `12`, `12.5`, `.5`; no sign, no exponent.
    private static func decimal(_ text: Substring) -> Double? {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard !text.isEmpty, text != ".", parts.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }) else { return nil }
        return Double(String(text))
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isWholeNumber }
}
