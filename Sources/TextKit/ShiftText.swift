import Foundation

/// Time shifts as typed and shown: `+3h02m`, `-1h`, `+45m`, `+1d2h`, `-30s` (`import --shift`, the clock
/// warning).
public enum ShiftText {
    /// Seconds of `text`: a sign, then one or more NUMBER+UNIT (d, h, m, s); nil when it is not one.
    public static func parse(_ text: String) -> Double? {
        var rest = Substring(text.trimmingCharacters(in: .whitespaces))
        var sign = 1.0
        if rest.first == "+" || rest.first == "-" {
            if rest.first == "-" { sign = -1 }
            rest = rest.dropFirst()
        }
        guard !rest.isEmpty else { return nil }
        var total = 0.0
        while !rest.isEmpty {
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty, digits.count <= 6, let value = Double(digits) else { return nil }
            rest = rest.dropFirst(digits.count)
            guard let unit = rest.first else { return nil }
            switch unit {
            case "d": total += value * 86_400
            case "h": total += value * 3600
            case "m": total += value * 60
            case "s": total += value
            default: return nil
            }
            rest = rest.dropFirst()
        }
        return sign * total
    }

    /// `+3h02m`, `-45m`, `+1h`, `+1d2h`, `+30s` (whole seconds).
    public static func format(_ seconds: Double) -> String {
        let sign = seconds < 0 ? "-" : "+"
        var rest = Int(abs(seconds).rounded())
        let days = rest / 86_400
        rest %= 86_400
        let hours = rest / 3600
        rest %= 3600
        let minutes = rest / 60
        let secs = rest % 60
        var text = sign
        if days > 0 { text += "\(days)d" }
        if hours > 0 { text += "\(hours)h" }
        if minutes > 0 { text += hours > 0 || days > 0 ? (minutes < 10 ? "0\(minutes)m" : "\(minutes)m") : "\(minutes)m" }
        if secs > 0 || text == sign { text += "\(secs)s" }
        return text
    }

    /// `3 h 02 min`, `45 min`, `2 d 3 h`: the clock warning's words for a difference.
    public static func words(_ seconds: Double) -> String {
        var rest = Int(abs(seconds).rounded()) / 60
        let days = rest / 1440
        rest %= 1440
        let hours = rest / 60
        let minutes = rest % 60
        var parts: [String] = []
        if days > 0 { parts.append("\(days) d") }
        if hours > 0 { parts.append("\(hours) h") }
        if minutes > 0 || parts.isEmpty { parts.append(parts.isEmpty ? "\(minutes) min" : (minutes < 10 ? "0\(minutes) min" : "\(minutes) min")) }
        return parts.joined(separator: " ")
    }
}
