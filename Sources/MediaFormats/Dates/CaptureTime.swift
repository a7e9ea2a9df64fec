import Foundation

/// When a photo or video was taken, as its source wrote it: the clock time, whether a zone came with it,
/// and where it came from. One value per file, shown and used by every command (`ls -l`, `info`, `find`,
/// `import`), so that they cannot disagree.
///
/// The clock time is kept as written ("floating": seconds since 1970-01-01 00:00 of that clock), because a
/// time without a zone is the local time where it was shot: a folder named after it uses it as written,
/// on any computer. Only the file's modification time needs an instant, and `instant(assuming:)` gives it
/// (the zone written with it, else the one given: never an offset applied twice).
public struct CaptureTime: Sendable, Equatable {
    /// Where a capture time came from, best first.
    public enum Source: String, Sendable, CaseIterable {
        /// EXIF DateTimeOriginal (with SubSecTimeOriginal and OffsetTimeOriginal when present).
        case exif = "EXIF"
        /// QuickTime's `com.apple.quicktime.creationdate` (it carries a zone).
        case quickTime = "QuickTime"
        /// The movie header's (`mvhd`) creation time: UTC by the specification, local time on some cameras.
        case movieHeader = "MP4"
        /// The first timestamp of a DJI clip's `.SRT` telemetry (local time).
        case srt = "SRT"
        /// The date the camera lists for the file (DateCreated, else DateModified).
        case camera = "camera"
        /// A card folder's file modification time (`dir:`).
        case fileTime = "file"
    }

    /// What the clock time says of its zone.
    public enum Zone: Sendable, Equatable {
        /// Written without one: the local time where it was shot.
        case unknown
        /// Written with this offset from UTC, in seconds (EXIF OffsetTimeOriginal, QuickTime's creationdate).
        case offset(Int)
        /// An instant in UTC (an MP4 header, a file's time): where it was shot is not known.
        case utc
    }

    /// The clock time as written, in seconds since 1970-01-01 00:00 of that clock (sub-seconds included).
    public var wall: Double
    public var zone: Zone
    public var source: Source

    public init(wall: Double, zone: Zone, source: Source) {
        self.wall = wall
        self.zone = zone
        self.source = source
    }

    /// An instant known as such (a file's time, an MP4 header): kept in UTC.
    public init(instant: Date, source: Source) {
        self.init(wall: instant.timeIntervalSince1970, zone: .utc, source: source)
    }

    /// A date a device listed without a zone and that was read as local time in `zone`: back to its clock
    /// time as written.
    public init(listed date: Date, readIn zone: TimeZone = .current, source: Source) {
        let seconds = date.timeIntervalSince1970
        self.init(wall: seconds + Double(zone.secondsFromGMT(for: date)), zone: .unknown, source: source)
    }

    /// The moment it was taken: the zone written with it, else `zone` (where it was shot: `--tz`, else
    /// this computer's zone).
    public func instant(assuming zone: TimeZone = .current) -> Date {
        switch self.zone {
        case .utc: return Date(timeIntervalSince1970: wall)
        case .offset(let seconds): return Date(timeIntervalSince1970: wall - Double(seconds))
        case .unknown: return Self.instant(ofWall: wall, in: zone)
        }
    }

    /// The clock time to show and to name folders by: as written when it has no zone or its own offset
    /// (the local time where it was shot); an instant in UTC shown in `zone`.
    public func clock(in zone: TimeZone = .current) -> Double {
        guard case .utc = self.zone else { return wall }
        return wall + Double(zone.secondsFromGMT(for: Date(timeIntervalSince1970: wall)))
    }

    /// The offset shown beside the clock time, when one is known: its own, or `zone`'s for a UTC instant.
    public func shownOffset(in zone: TimeZone = .current) -> Int? {
        switch self.zone {
        case .unknown: return nil
        case .offset(let seconds): return seconds
        case .utc: return zone.secondsFromGMT(for: Date(timeIntervalSince1970: wall))
        }
    }

    /// The same time moved by `seconds` (`import --shift`, for a camera whose clock was wrong).
    public func shifted(by seconds: Double) -> CaptureTime {
        var copy = self
        copy.wall += seconds
        return copy
    }

    /// Why this time is not to be believed, or nil: the defaults cameras write when their clock was never
    /// set or a field is empty (1970 and earlier, 1980-01-01, 2000-01-01 00:00), or a time more than a day
    /// after `now`.
    public func nonsense(now: Date = Date()) -> String? {
        let (year, month, day, hour, minute, _) = Self.fields(wall)
        if year <= 1970 { return "\(year)" }
        if year == 1980 && month == 1 && day == 1 { return "1980-01-01" }
        if year == 2000 && month == 1 && day == 1 && hour == 0 && minute == 0 { return "2000-01-01 00:00" }
        if instant().timeIntervalSince(now) > 86_400 { return "in the future" }
        return nil
    }

    // MARK: Text

    /// `2024-05-01T10:20:30.12+02:00`, `2024-05-01T10:20:30` (no zone), `2024-05-01T08:20:30Z` (UTC): the
    /// form the ledger keeps and `ls --json` prints (fractions only when there are some).
    public var text: String {
        var text = Self.isoText(wall)
        switch zone {
        case .unknown: break
        case .utc: text += "Z"
        case .offset(let seconds): text += Self.offsetText(seconds)
        }
        return text
    }

    /// Reads `text` back.
    public init?(text: String, source: Source) {
        guard let parsed = Self.parseISO(text) else { return nil }
        self.init(wall: parsed.wall, zone: parsed.zone ?? .unknown, source: source)
        if text.hasSuffix("Z") { zone = .utc }
    }

    /// `2024-05-01T10:20:30` with `.ff` when the time has a fraction of a second.
    static func isoText(_ wall: Double) -> String {
        let whole = wall.rounded(.down)
        let (y, mo, d, h, mi, s) = fields(whole)
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        var text = String(format: "%04d", y) + "-" + two(mo) + "-" + two(d) + "T" + two(h) + ":" + two(mi) + ":" + two(s)
        let fraction = wall - whole
        if fraction >= 0.0005 {
            var digits = String(format: "%.3f", fraction).dropFirst(2)
            while digits.hasSuffix("0") { digits = digits.dropLast() }
            if !digits.isEmpty { text += "." + digits }
        }
        return text
    }

    /// `+02:00`, `-05:30`, `+00:00`.
    public static func offsetText(_ seconds: Int) -> String {
        let sign = seconds < 0 ? "-" : "+"
        let minutes = abs(seconds) / 60
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return sign + two(minutes / 60) + ":" + two(minutes % 60)
    }

    // MARK: Parsing the sources' forms

    /// EXIF's `2024:05:01 10:20:30` with SubSecTimeOriginal (`12` = .12 s) and OffsetTimeOriginal
    /// (`+02:00`) when present; nil for a value that is no date (`0000:00:00 00:00:00`, blanks).
    public static func exif(_ text: String, subSeconds: String? = nil, offset: String? = nil) -> CaptureTime? {
        guard var wall = wallClock(text, separators: [":", ":", " ", ":", ":"]) else { return nil }
        if let subSeconds, let digits = Self.digitsPrefix(subSeconds.trimmingCharacters(in: .whitespaces)), !digits.isEmpty,
            let value = Double("0." + digits)
        {
            wall += value
        }
        let zone = offset.flatMap { parseOffset(Substring($0.trimmingCharacters(in: .whitespaces))) }
        return CaptureTime(wall: wall, zone: zone.map(Zone.offset) ?? .unknown, source: .exif)
    }

    /// QuickTime's creationdate: ISO 8601, `2024-05-01T10:20:30+0200` (or `+02:00`, `Z`, or no zone).
    public static func quickTime(_ text: String) -> CaptureTime? {
        guard let parsed = parseISO(text.trimmingCharacters(in: .whitespaces)) else { return nil }
        return CaptureTime(wall: parsed.wall, zone: parsed.zone ?? .unknown, source: .quickTime)
    }

    /// The first timestamp of a DJI `.SRT`: `2024-05-01 10:20:30.123` (or `,123,456`), or the older
    /// `2019.06.20 14:23:42`; local time, no zone.
    public static func srt(_ text: String) -> CaptureTime? {
        let bytes = Array(text.utf8.prefix(64 << 10))
        func isDigit(_ b: UInt8) -> Bool { b >= 48 && b <= 57 }
        var i = 0
        while i + 19 <= bytes.count {
            defer { i += 1 }
            // A cheap look first: four digits and a separator.
            guard isDigit(bytes[i]), isDigit(bytes[i + 3]), bytes[i + 4] == UInt8(ascii: "-") || bytes[i + 4] == UInt8(ascii: ".")
            else { continue }
            let separator = Character(UnicodeScalar(bytes[i + 4]))
            let candidate = String(decoding: bytes[i..<i + 19], as: UTF8.self)
            guard var wall = wallClock(candidate, separators: [separator, separator, " ", ":", ":"]) else { continue }
            var j = i + 19
            if j < bytes.count, bytes[j] == UInt8(ascii: ".") || bytes[j] == UInt8(ascii: ",") {
                j += 1
                var digits = ""
                while j < bytes.count, isDigit(bytes[j]), digits.count < 6 {
                    digits.append(Character(UnicodeScalar(bytes[j])))
                    j += 1
                }
                if let fraction = Double("0." + digits), !digits.isEmpty { wall += fraction }
            }
            return CaptureTime(wall: wall, zone: .unknown, source: .srt)
        }
        return nil
    }

    /// `YYYY?MM?DD?hh?mm?ss` with the given separators, as a floating clock time; nil when a field is no
    /// number or out of range.
    static func wallClock(_ text: String, separators: [Character]) -> Double? {
        let chars = Array(text.prefix(19))
        guard chars.count == 19 else { return nil }
        for (index, position) in [4, 7, 10, 13, 16].enumerated() where chars[position] != separators[index] {
            // ISO's `T` is accepted where a space is expected.
            if !(separators[index] == " " && chars[position] == "T" || separators[index] == "T" && chars[position] == " ") {
                return nil
            }
        }
        func number(_ range: Range<Int>) -> Int? {
            var v = 0
            for i in range {
                guard let d = chars[i].wholeNumberValue, chars[i].isASCII else { return nil }
                v = v * 10 + d
            }
            return v
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
            (1...12).contains(month), (1...31).contains(day), day <= daysIn(month: month, year: year),
            hour < 24, minute < 60, second < 61, year > 0
        else { return nil }
        return Double(daysFromCivil(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second)
    }

    static func parseISO(_ text: String) -> (wall: Double, zone: Zone?)? {
        guard var wall = wallClock(text, separators: ["-", "-", "T", ":", ":"]) else { return nil }
        var rest = Substring(text.dropFirst(19))
        if rest.first == "." || rest.first == "," {
            rest = rest.dropFirst()
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            if !digits.isEmpty, let fraction = Double("0." + digits) { wall += fraction }
            rest = rest.dropFirst(digits.count)
        }
        if rest.isEmpty { return (wall, nil) }
        if rest == "Z" { return (wall, .utc) }
        guard let offset = parseOffset(rest) else { return nil }
        return (wall, .offset(offset))
    }

    /// `+02:00`, `+0200`, `-05`, `Z`: seconds east of UTC.
    static func parseOffset(_ text: Substring) -> Int? {
        if text == "Z" { return 0 }
        guard let sign = text.first, sign == "+" || sign == "-" else { return nil }
        let digits = text.dropFirst().filter { $0 != ":" }
        guard digits.count == 4 || digits.count == 2, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
            let hours = Int(digits.prefix(2)), let minutes = Int(digits.dropFirst(2).isEmpty ? "0" : String(digits.dropFirst(2))),
            hours <= 14, minutes < 60
        else { return nil }
        return (sign == "-" ? -1 : 1) * (hours * 3600 + minutes * 60)
    }

    static func digitsPrefix(_ text: String) -> String? {
        let digits = text.prefix { $0.isASCII && $0.isNumber }
        return digits.isEmpty ? nil : String(digits.prefix(9))
    }

    // MARK: Calendar arithmetic (no Calendar: a listing converts thousands of these)

    /// Year, month, day, hour, minute, second of a floating clock time.
    public static func fields(_ wall: Double) -> (Int, Int, Int, Int, Int, Int) {
        let seconds = Int(wall.rounded(.down))
        var days = seconds / 86_400
        var rest = seconds % 86_400
        if rest < 0 {
            rest += 86_400
            days -= 1
        }
        let (y, m, d) = civil(fromDays: days)
        return (y, m, d, rest / 3600, rest % 3600 / 60, rest % 60)
    }

    /// The instant at which `zone`'s clocks showed `wall` (the later of two in a repeated hour).
    public static func instant(ofWall wall: Double, in zone: TimeZone) -> Date {
        let guess = Double(zone.secondsFromGMT(for: Date(timeIntervalSince1970: wall)))
        let first = wall - guess
        let corrected = Double(zone.secondsFromGMT(for: Date(timeIntervalSince1970: first)))
        return Date(timeIntervalSince1970: wall - corrected)
    }

    /// Days from 1970-01-01 (Howard Hinnant's algorithm).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The proleptic Gregorian (year, month, day) of a count of days from 1970-01-01 (Howard Hinnant's algorithm).
    package static func civil(fromDays z0: Int) -> (Int, Int, Int) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let y = yoe + era * 400
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (m <= 2 ? y + 1 : y, m, d)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
