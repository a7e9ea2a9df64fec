import Foundation

/// Time zones as typed: by name (`Europe/Paris`, `UTC`) or by offset (`+02:00`, `-0500`, `+2`).
public enum TimeZoneText {
    /// The zone `text` names, nil when it names none.
    public static func parse(_ text: String) -> TimeZone? {
        if let zone = TimeZone(identifier: text), text.contains("/") || text.uppercased() == text { return zone }
        let digits = text.dropFirst().filter { $0 != ":" }
        guard let sign = text.first, sign == "+" || sign == "-", digits.count == 4 || digits.count == 2,
            let hours = Int(digits.prefix(2)), let minutes = Int(digits.count == 4 ? String(digits.suffix(2)) : "0"),
            hours <= 14, minutes < 60
        else { return nil }
        return TimeZone(secondsFromGMT: (sign == "-" ? -1 : 1) * (hours * 3600 + minutes * 60))
    }
}
