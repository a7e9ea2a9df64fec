import Foundation

/// PTP's date string "YYYYMMDDThhmmss[.s][Z|±hhmm]" (PIMA 15740 section 5.3.5).
public enum PTPDateTime {
    /// Parses a PTP date; nil when the string is empty or not a date. A string without a zone is local
    /// time on the device, read here in `assumedZone`.
    public static func parse(_ text: String, assumedZone: TimeZone = .current) -> Date? {
        // Read in place: a listing of 100,000 objects parses a date or two for each.
        if let date = text.utf8.withContiguousStorageIfAvailable({ parse(bytes: $0, assumedZone: assumedZone) }) {
            return date
        }
        return Array(text.utf8).withUnsafeBufferPointer { parse(bytes: $0, assumedZone: assumedZone) }
    }

    private static func parse(bytes chars: UnsafeBufferPointer<UInt8>, assumedZone: TimeZone) -> Date? {
        guard chars.count >= 15, chars[8] == UInt8(ascii: "T") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for i in range {
                guard chars[i] >= 48, chars[i] <= 57 else { return nil }
                value = value * 10 + Int(chars[i] - 48)
            }
            return value
        }
        guard let year = number(0..<4), let month = number(4..<6), let day = number(6..<8),
            let hour = number(9..<11), let minute = number(11..<13), let second = number(13..<15),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var index = 15
        var fraction = 0.0
        if index < chars.count, chars[index] == UInt8(ascii: ".") {
            index += 1
            var scale = 0.1
            while index < chars.count, chars[index] >= 48, chars[index] <= 57 {
                fraction += Double(chars[index] - 48) * scale
                scale /= 10
                index += 1
            }
        }
        var zone = assumedZone
        if index < chars.count {
            if chars[index] == UInt8(ascii: "Z") {
                zone = TimeZone(identifier: "UTC")!
            } else if chars[index] == UInt8(ascii: "+") || chars[index] == UInt8(ascii: "-"),
                chars.count >= index + 5, let hh = number(index + 1..<index + 3), let mm = number(index + 3..<index + 5)
            {
                let sign = chars[index] == UInt8(ascii: "-") ? -1 : 1
                zone = TimeZone(secondsFromGMT: sign * (hh * 3600 + mm * 60)) ?? assumedZone
            }
        }
        // The time as if it were UTC, then moved by the zone's offset at that moment; where the offset
        // differs an hour later or earlier (a daylight-saving change), the calendar decides, as before.
        if day <= daysIn(month: month, year: year) {
            let wall = Double(daysFromCivil(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second)
            let guess = zone.secondsFromGMT(for: Date(timeIntervalSince1970: wall))
            let instant = wall - Double(guess)
            if zone.secondsFromGMT(for: Date(timeIntervalSince1970: instant)) == guess {
                return Date(timeIntervalSince1970: instant + fraction)
            }
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        return calendar.date(from: components).map { $0.addingTimeInterval(fraction) }
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (Howard Hinnant's algorithm).
    package static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Formats a date the PTP way, in `zone`, without a zone suffix (as most cameras do).
    public static func format(_ date: Date, zone: TimeZone = .current) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ v: Int?) -> String { let v = v ?? 0; return v < 10 ? "0\(v)" : "\(v)" }
        let year = String(c.year ?? 1970)
        return year + two(c.month) + two(c.day) + "T" + two(c.hour) + two(c.minute) + two(c.second)
    }
}
