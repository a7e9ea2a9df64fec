import Foundation
import Testing

@testable import PTPFacts

/// PTP dates are read by arithmetic (the calendar only decides around a daylight-saving change): the
/// same instants as the calendar's, in zones with and without such changes.
@Suite struct PTPDateTimeTests {
    @Test(arguments: ["UTC", "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kathmandu"])
    func parsingAgreesWithTheCalendar(zoneName: String) throws {
        let zone = try #require(TimeZone(identifier: zoneName))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        // Every 7 days and 5 hours from 1999 to 2030: leap years, month ends, both sides of every change.
        var day = try #require(calendar.date(from: DateComponents(year: 1999, month: 1, day: 1)))
        let end = try #require(calendar.date(from: DateComponents(year: 2030, month: 12, day: 31)))
        while day < end {
            let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: day)
            let text = String(format: "%04d%02d%02dT%02d%02d%02d", c.year!, c.month!, c.day!, c.hour!, c.minute!, c.second!)
            let expected = calendar.date(from: c)
            #expect(PTPDateTime.parse(text, assumedZone: zone) == expected, "\(text) in \(zoneName)")
            day += 7 * 86_400 + 5 * 3600 + 17
        }
    }

    @Test func daysFromCivil() {
        #expect(PTPDateTime.daysFromCivil(year: 1970, month: 1, day: 1) == 0)
        #expect(PTPDateTime.daysFromCivil(year: 2000, month: 3, day: 1) == 11_017)
        #expect(PTPDateTime.daysFromCivil(year: 1969, month: 12, day: 31) == -1)
        #expect(PTPDateTime.daysFromCivil(year: 2024, month: 2, day: 29) == 19_782)
    }

    @Test func impossibleDaysAreLeftToTheCalendar() throws {
        let utc = try #require(TimeZone(identifier: "UTC"))
        // February 30th: the calendar's lenient answer (March 2nd), as before.
        #expect(PTPDateTime.parse("20230230T000000", assumedZone: utc) == PTPDateTime.parse("20230302T000000", assumedZone: utc))
    }
}
