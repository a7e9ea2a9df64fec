import Foundation

/// Dates as typed for a filter (`find --since`): `2024-05-01`, `2024-05-01T10:15` or `2024-05-01 10:15` in
/// local time, or a day counted back from now: `today`, `yesterday`, `-2d` (the start of that day).
public enum DayText {
    /// The date of `text`; nil when it is none of these.
    public static func parse(_ text: String, now: Date = Date()) -> Date? {
        let calendar = Calendar.current
        let days: Int? = switch text.lowercased() {
        case "today": 0
        case "yesterday": 1
        default: text.hasPrefix("-") && text.hasSuffix("d") ? Int(text.dropFirst().dropLast()).flatMap { $0 >= 0 ? $0 : nil } : nil
        }
        if let days, let day = calendar.date(byAdding: .day, value: -days, to: calendar.startOfDay(for: now)) {
            return day
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = .current
        for format in ["yyyy-MM-dd", "yyyy-MM-dd'T'HH:mm", "yyyy-MM-dd HH:mm"] {
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }
}
