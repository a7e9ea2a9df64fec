import Foundation

/// Dates as a shell shows them, in the local time zone:
/// `2024-05-01 10:15` in listings, `2024-05-01 10:15:02` in details, `2024-05-01T10:15:02` in JSON.
public final class DateText {
    public init() {}

    private lazy var short = Self.formatter("yyyy-MM-dd HH:mm")
    private lazy var full = Self.formatter("yyyy-MM-dd HH:mm:ss")
    private lazy var machine = Self.formatter("yyyy-MM-dd'T'HH:mm:ss")

    public func listing(_ date: Date) -> String { short.string(from: date) }
    public func details(_ date: Date) -> String { full.string(from: date) }
    public func json(_ date: Date) -> String { machine.string(from: date) }

    private static func formatter(_ format: String) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = .current
        formatter.dateFormat = format
        return formatter
    }
}
