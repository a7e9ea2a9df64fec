import Foundation
import Testing
@testable import Import

/// The times an ASC MHL generation holds are made by calendar arithmetic, not a formatter: they must be what
/// a UTC `DateFormatter` writes for every second, across leap days, centuries and the years before 1970.
struct MHLDatesTests {
    static func formatter(_ format: String) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = format
        return formatter
    }

    @Test func eachTimeIsWhatAFormatterWrites() {
        let document = Self.formatter("yyyy-MM-dd'T'HH:mm:ssxxx")
        let fileName = Self.formatter("yyyy-MM-dd_HHmmss'Z'")
        var generator = SystemRandomNumberGenerator()
        // 1601 to 2400 at random, the edges of leap years and centuries, and fractions on both sides of 0.
        var seconds: [Double] = (0..<20_000).map { _ in Double(Int64.random(in: -11_644_473_600...13_569_465_600, using: &generator)) }
        for year in [1900, 1970, 2000, 2024, 2100] {
            let start = Self.formatter("yyyy-MM-dd").date(from: "\(year)-02-28")!.timeIntervalSince1970
            seconds += stride(from: start - 1, through: start + 2 * 86_400 + 1, by: 3_599)
        }
        seconds += [0, -0.5, 0.999, -1, 1_765_113_791.75, -86_400.25]
        for value in seconds {
            let date = Date(timeIntervalSince1970: value)
            #expect(MHLDates.text(date) == document.string(from: date), "\(value)")
            #expect(MHLDates.fileNameText(date) == fileName.string(from: date), "\(value)")
        }
    }
}
