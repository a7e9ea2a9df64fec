import Foundation

/// A place on Earth in decimal degrees: north and east positive.
public struct GeoPoint: Sendable, Equatable, Encodable {
    public var latitude: Double
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// A position a receiver could have given: within range, and not 0,0 (what DJI writes before a fix).
    var isFix: Bool {
        latitude.isFinite && longitude.isFinite && abs(latitude) <= 90 && abs(longitude) <= 180
            && !(latitude == 0 && longitude == 0)
    }
}

/// What a DJI clip's `.SRT` telemetry says of the flight it recorded: where the recording started and
/// ended, the highest altitudes and how long it lasted. Read in one pass over the text, keeping only these
/// numbers (a long flight has tens of thousands of cues).
///
/// The forms DJI has written, one cue per frame or per second:
/// - `[iso: 100] [shutter: 1/640.0] [fnum: 1.7] ... [latitude: 46.519653] [longitude: 6.632273]
///   [rel_alt: 30.000 abs_alt: 402.000]` (Mini 3/4, Air 2S, Mavic 3; some with spaces before the colons),
/// - `[latitude : 22.1] [longtitude : 113.1] [altitude: 35.1]` (Mavic 2, Mavic Air: DJI's spelling),
/// - `GPS(113.1,22.1,120) BAROMETER:35.1` (Phantom 4, Mavic Pro: longitude first, then altitude),
/// - `GPS (113.1, 22.1, 19), D 5.42m, H 3.20m` (Mavic Mini: the third number is no altitude; H is the
///   height above take-off).
public struct FlightSummary: Sendable, Equatable {
    /// The first and last positions with a fix.
    public var start: GeoPoint?
    public var end: GeoPoint?
    /// The highest altitude above the take-off point (rel_alt, BAROMETER, H), in metres.
    public var highestRelative: Double?
    /// The highest altitude above sea level (abs_alt, GPS's third number), in metres.
    public var highestAbsolute: Double?
    /// The highest `altitude` of the forms that do not say what it is measured from, in metres.
    public var highestUnspecified: Double?
    /// From the first cue's start to the last cue's end, in seconds.
    public var duration: Double?
    /// The cues read.
    public var cueCount = 0

    /// True when the text held no position and no altitude: not DJI telemetry (subtitles, perhaps).
    public var isEmpty: Bool {
        start == nil && highestRelative == nil && highestAbsolute == nil && highestUnspecified == nil
    }

    /// Reads `bytes` (a whole `.SRT`, UTF-8).
    public init(srt bytes: [UInt8]) {
        var firstStart: Double?
        var lastEnd: Double?
        Self.eachCue(bytes) { cue in
            cueCount += 1
            if let point = cue.point, point.isFix {
                if start == nil { start = point }
                end = point
            }
            highestRelative = Self.higher(highestRelative, cue.relative)
            highestAbsolute = Self.higher(highestAbsolute, cue.absolute)
            highestUnspecified = Self.higher(highestUnspecified, cue.unspecified)
            if let from = cue.from, let to = cue.to {
                if firstStart == nil { firstStart = from }
                lastEnd = max(lastEnd ?? to, to)
            }
        }
        if let firstStart, let lastEnd, lastEnd >= firstStart { duration = lastEnd - firstStart }
    }

    /// Walks the cues of `bytes` (a whole `.SRT`), handing each to `body` once its values are read.
    static func eachCue(_ bytes: [UInt8], _ body: (CueValues) -> Void) {
        var cue = CueValues()
        func finishCue() {
            guard cue.hasAny else { return }
            body(cue)
            cue = CueValues()
        }
        // Most lines hold nothing read here (cue numbers, frame counters, dates): they are passed over by
        // their bytes, and only the others become text.
        for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            if line.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\t") }) {
                finishCue()
            } else if Self.find("-->", in: line), let (from, to) = Self.cueTimes(Array(line)) {
                finishCue()
                cue.from = from
                cue.to = to
            } else if line.contains(UInt8(ascii: "[")) || Self.find("GPS", in: line) || Self.find("BAROMETER", in: line)
                || Self.find(" H ", in: line)
            {
                cue.read(Self.withoutMarkup(line))
            }
        }
        finishCue()
    }

    private static func higher(_ a: Double?, _ b: Double?) -> Double? {
        guard let b, b.isFinite else { return a }
        return max(a ?? b, b)
    }

    /// True when `needle` (ASCII) occurs in `line`.
    static func find(_ needle: StaticString, in line: ArraySlice<UInt8>) -> Bool {
        let pattern = UnsafeBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount)
        guard let first = pattern.first, line.count >= pattern.count else { return false }
        var index = line.startIndex
        let last = line.endIndex - pattern.count
        while index <= last {
            if line[index] == first, line[index..<index + pattern.count].elementsEqual(pattern) { return true }
            index += 1
        }
        return false
    }

    /// The line without `<font ...>` and `</font>` tags.
    static func withoutMarkup(_ line: ArraySlice<UInt8>) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(line.count)
        var inTag = false
        for byte in line {
            if byte == UInt8(ascii: "<") {
                inTag = true
            } else if byte == UInt8(ascii: ">"), inTag {
                inTag = false
            } else if !inTag {
                result.append(byte)
            }
        }
        return result
    }

    /// `00:00:01,000 --> 00:00:02,000`: the start and end in seconds.
    static func cueTimes(_ line: [UInt8]) -> (Double, Double)? {
        let text = String(decoding: line, as: UTF8.self)
        let parts = text.components(separatedBy: "-->")
        guard parts.count == 2, let from = timestamp(parts[0]), let to = timestamp(parts[1]) else { return nil }
        return (from, to)
    }

    /// `HH:MM:SS,mmm` (or with a `.`) in seconds.
    static func timestamp(_ text: String) -> Double? {
        let fields = text.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: ",", with: ".").split(separator: ":")
        guard fields.count == 3, let hours = Int(fields[0]), let minutes = Int(fields[1]), let seconds = Double(fields[2]),
            hours >= 0, (0..<60).contains(minutes), seconds >= 0, seconds < 61
        else { return nil }
        return Double(hours * 3600 + minutes * 60) + seconds
    }
}

/// The numbers of one cue, as its text lines come.
struct CueValues {
    var latitude: Double?
    var longitude: Double?
    var relative: Double?
    var absolute: Double?
    var unspecified: Double?
    /// The cue's start and end, in seconds.
    var from: Double?
    var to: Double?
    /// The exposure, where the drone writes it (`[iso: 100] [shutter: 1/640.0] [fnum: 1.7] [ev: 0]`).
    var iso: Double?
    var shutter: String?
    var fnumber: Double?
    var exposureBias: Double?

    var point: GeoPoint? {
        guard let latitude, let longitude else { return nil }
        return GeoPoint(latitude: latitude, longitude: longitude)
    }

    var hasAny: Bool {
        from != nil || latitude != nil || longitude != nil || relative != nil || absolute != nil || unspecified != nil
    }

    /// Takes the values of one line: `[key: value]` pairs (several in one bracket too), `GPS(lon,lat,alt)`,
    /// `BAROMETER:h`, `H 3.20m`.
    mutating func read(_ line: [UInt8]) {
        if line.contains(UInt8(ascii: "[")) { readBrackets(line) }
        let older = FlightSummary.find("GPS", in: line[...]) || FlightSummary.find("BAROMETER", in: line[...])
            || FlightSummary.find(" H ", in: line[...])
        guard older else { return }
        let text = String(decoding: line, as: UTF8.self)
        if let range = text.range(of: "GPS") {
            readGPS(text[range.upperBound...], saysHeight: text.contains(" H "))
        }
        if let range = text.range(of: "BAROMETER") {
            relative = Self.number(Array(text[range.upperBound...].drop { $0 == ":" || $0 == " " }.utf8)[...]) ?? relative
        }
        if let range = text.range(of: " H ") {
            relative = Self.number(Array(text[range.upperBound...].utf8)[...]) ?? relative
        }
    }

    /// The `key: value` pairs inside brackets (`key : value` too, and several in one bracket), read by
    /// their bytes: a long flight has one such line per frame.
    private mutating func readBrackets(_ line: [UInt8]) {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D }
        func isBracket(_ byte: UInt8) -> Bool { byte == UInt8(ascii: "[") || byte == UInt8(ascii: "]") }
        var index = 0
        var inBracket = false
        while index < line.count {
            let byte = line[index]
            if isBracket(byte) {
                inBracket = byte == UInt8(ascii: "[")
                index += 1
                continue
            }
            guard inBracket, !isSpace(byte) else {
                index += 1
                continue
            }
            let keyStart = index
            while index < line.count, line[index] != UInt8(ascii: ":"), !isSpace(line[index]), !isBracket(line[index]) {
                index += 1
            }
            let key = line[keyStart..<index]
            while index < line.count, isSpace(line[index]) { index += 1 }
            guard index < line.count, line[index] == UInt8(ascii: ":") else { continue }  // a word of no pair
            index += 1
            while index < line.count, isSpace(line[index]) { index += 1 }
            let valueStart = index
            while index < line.count, !isSpace(line[index]), !isBracket(line[index]) { index += 1 }
            guard let field = Field(key) else { continue }
            if field == .shutter {
                shutter = String(decoding: line[valueStart..<index].prefix(16), as: UTF8.self)
                continue
            }
            guard let number = Self.number(line[valueStart..<index]) else { continue }
            switch field {
            case .latitude: latitude = number
            case .longitude: longitude = number
            case .relative: relative = number
            case .absolute: absolute = number
            case .unspecified: unspecified = number
            case .iso: iso = number
            case .fnumber: fnumber = number
            case .exposureBias: exposureBias = number
            case .shutter: break
            }
        }
    }

    /// The bracketed keys read, by their spelling in any case.
    private enum Field {
        case latitude, longitude, relative, absolute, unspecified, iso, shutter, fnumber, exposureBias

        init?(_ key: ArraySlice<UInt8>) {
            let lowered = key.map { $0 >= 65 && $0 <= 90 ? $0 | 0x20 : $0 }
            switch String(decoding: lowered, as: UTF8.self) {
            case "latitude": self = .latitude
            case "longitude", "longtitude": self = .longitude
            case "rel_alt": self = .relative
            case "abs_alt": self = .absolute
            case "altitude": self = .unspecified
            case "iso": self = .iso
            case "shutter": self = .shutter
            case "fnum": self = .fnumber
            case "ev": self = .exposureBias
            default: return nil
            }
        }
    }

    /// `(lon,lat,alt)` after `GPS`; the third number is an altitude unless the line gives a height (`H`).
    private mutating func readGPS(_ rest: Substring, saysHeight: Bool) {
        let afterSpace = rest.drop { $0 == " " }
        guard afterSpace.first == "(", let close = afterSpace.firstIndex(of: ")") else { return }
        let numbers = afterSpace[afterSpace.index(after: afterSpace.startIndex)..<close].split(separator: ",").map {
            Double($0.trimmingCharacters(in: .whitespaces))
        }
        guard numbers.count >= 2, let lon = numbers[0], let lat = numbers[1] else { return }
        longitude = lon
        latitude = lat
        if numbers.count >= 3, !saysHeight, let altitude = numbers[2] { absolute = altitude }
    }

    /// The number at the start of `bytes` (`35.1`, `-2.5m`, `402.000`), or nil (`1e999` too: no finite number).
    static func number(_ bytes: ArraySlice<UInt8>) -> Double? {
        let digits = bytes.prefix(32).prefix { ($0 >= 48 && $0 <= 57) || [46, 45, 43, 101, 69].contains($0) }
        guard !digits.isEmpty, let value = Double(String(decoding: digits, as: UTF8.self)), value.isFinite else { return nil }
        return value
    }
}
