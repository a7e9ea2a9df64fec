import Foundation
import TerminalKit
import Testing

/// `import --tz`'s zones: by name or by offset, anything else refused.
@Suite struct TimeZoneTextTests {
    @Test func namesAndOffsets() {
        #expect(TimeZoneText.parse("Europe/Paris")?.identifier == "Europe/Paris")
        #expect(TimeZoneText.parse("UTC")?.secondsFromGMT() == 0)
        #expect(TimeZoneText.parse("+02:00")?.secondsFromGMT() == 7200)
        #expect(TimeZoneText.parse("-0530")?.secondsFromGMT() == -(5 * 3600 + 30 * 60))
        #expect(TimeZoneText.parse("+09")?.secondsFromGMT() == 9 * 3600)
    }

    @Test func whatIsNotAZoneIsRefused() {
        for text in ["", "paris", "+15:00", "+02:60", "+2", "0200", "+02:0"] {
            #expect(TimeZoneText.parse(text) == nil, "\(text)")
        }
    }
}
