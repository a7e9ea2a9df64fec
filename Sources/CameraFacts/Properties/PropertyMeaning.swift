import Foundation
import PTPFacts

/// What a device property means to a person: its name, its values decoded (white balance "daylight",
/// exposure time "1/250", battery "87%", the clock as a date) and how typed text becomes a value again.
/// Properties this table does not know are named by code (`0xd001`) and shown as raw numbers or text.
/// Text comes back as the camera sent it: whoever prints it makes it safe for a terminal.
public struct PropertyMeaning: Sendable {
    public let code: DevicePropertyCode
    public let name: String
    private let words: [UInt64: String]
    private let show: (@Sendable (PTPValue) -> String?)?

    private init(_ code: DevicePropertyCode, _ name: String, words: [UInt64: String] = [:], show: (@Sendable (PTPValue) -> String?)? = nil) {
        self.code = code
        self.name = name
        self.words = words
        self.show = show
    }

    static let known: [PropertyMeaning] = [
        PropertyMeaning(.batteryLevel, "battery", show: { $0.unsignedValue.map { "\($0)%" } }),
        PropertyMeaning(.imageSize, "imagesize"),
        PropertyMeaning(.whiteBalance, "whitebalance", words: [
            1: "manual", 2: "auto", 3: "one-push", 4: "daylight", 5: "fluorescent", 6: "tungsten", 7: "flash",
        ]),
        PropertyMeaning(.fNumber, "fnumber", show: { v in
            v.unsignedValue.map { n in n % 100 == 0 ? "f/\(n / 100)" : n % 10 == 0 ? "f/\(n / 100).\(n / 10 % 10)" : "f/\(Double(n) / 100)" }
        }),
        PropertyMeaning(DevicePropertyCode(0x5008), "focallength", show: { $0.unsignedValue.map { "\(Double($0) / 100)mm" } }),
        PropertyMeaning(DevicePropertyCode(0x500C), "flashmode", words: [
            0: "undefined", 1: "auto", 2: "off", 3: "fill", 4: "red-eye", 5: "red-eye-fill", 6: "external",
        ]),
        PropertyMeaning(.exposureTime, "exposuretime", show: { $0.unsignedValue.map(PropertyMeaning.exposure) }),
        PropertyMeaning(DevicePropertyCode(0x500E), "exposureprogram", words: [
            1: "manual", 2: "auto", 3: "aperture-priority", 4: "shutter-priority", 5: "creative", 6: "action",
            7: "portrait",
        ]),
        PropertyMeaning(.exposureIndex, "iso"),
        PropertyMeaning(.dateTime, "datetime", show: { v in
            guard case .string(let text) = v, let date = PTPDateTime.parse(text) else { return nil }
            return PropertyMeaning.dateFormatter.string(from: date)
        }),
        PropertyMeaning(.captureMode, "capturemode", words: [1: "normal", 2: "burst", 3: "timelapse"]),
        PropertyMeaning(.workMode, "workmode", words: [0: "shoot", 1: "download"]),
    ] + canonEOS

    /// Canon EOS properties (reported in the body's event stream), their values by Canon's codes as
    /// libgphoto2's tables give them.
    static let canonEOS: [PropertyMeaning] = [
        PropertyMeaning(.canonEOSAperture, "aperture", words: CanonEOSValues.apertures.mapValues { "f/" + $0 }),
        PropertyMeaning(.canonEOSShutterSpeed, "shutterspeed", words: CanonEOSValues.shutterSpeeds),
        PropertyMeaning(.canonEOSISOSpeed, "iso", words: CanonEOSValues.isoSpeeds),
        PropertyMeaning(.canonEOSExpCompensation, "exposurecompensation", words: CanonEOSValues.exposureCompensations),
        PropertyMeaning(.canonEOSAutoExposureMode, "aemode", words: [
            0: "P", 1: "Tv", 2: "Av", 3: "M", 4: "bulb", 5: "A-DEP", 6: "DEP", 7: "custom", 8: "lock", 9: "green",
            10: "night-portrait", 11: "sports", 12: "portrait", 13: "landscape", 14: "closeup", 15: "flash-off",
        ]),
        PropertyMeaning(.canonEOSDriveMode, "drivemode"),
        PropertyMeaning(.canonEOSFocusMode, "focusmode", words: [0: "one-shot", 1: "ai-servo", 2: "ai-focus", 3: "manual"]),
        PropertyMeaning(.canonEOSWhiteBalance, "whitebalance", words: [
            0: "auto", 1: "daylight", 2: "cloudy", 3: "tungsten", 4: "fluorescent", 5: "flash", 6: "manual",
            8: "shadow", 9: "color-temperature",
        ]),
        PropertyMeaning(.canonEOSBatteryPower, "battery", words: [0: "low", 1: "50%", 2: "100%", 4: "75%", 5: "25%"]),
        PropertyMeaning(.canonEOSCameraTime, "datetime", show: { v in
            v.unsignedValue.map { PropertyMeaning.dateFormatter.string(from: Date(timeIntervalSince1970: TimeInterval($0))) }
        }),
        PropertyMeaning(.canonEOSOwner, "owner"),
        PropertyMeaning(.canonEOSSerialNumber, "serialnumber"),
        PropertyMeaning(.canonEOSAvailableShots, "shotsleft"),
        PropertyMeaning(.canonEOSCaptureDestination, "capturetarget", words: [1: "card", 2: "card", 4: "computer"]),
        PropertyMeaning(.canonEOSEVFOutputDevice, "evfoutput", words: [0: "off", 1: "camera", 2: "computer"]),
    ]

    public static func of(_ code: DevicePropertyCode) -> PropertyMeaning {
        known.first { $0.code == code } ?? PropertyMeaning(code, "0x" + hex(code.rawValue))
    }

    /// The property a user named: a known name or a code (`0x5005`, `d001`), any case.
    public static func named(_ text: String, among codes: [DevicePropertyCode]) -> PropertyMeaning? {
        let lowered = text.lowercased()
        if let meaning = known.first(where: { $0.name == lowered && codes.contains($0.code) }) { return meaning }
        let digits = lowered.hasPrefix("0x") ? String(lowered.dropFirst(2)) : lowered
        guard digits.count == 4, let raw = UInt16(digits, radix: 16), codes.contains(DevicePropertyCode(raw)) else {
            return nil
        }
        return of(DevicePropertyCode(raw))
    }

    /// A value as shown: by its meaning where known, else the number or the text.
    public func display(_ value: PTPValue) -> String {
        if let number = value.unsignedValue, let word = words[number] { return word }
        if let text = show?(value) { return text }
        switch value {
        case .string(let s): return s
        case .array(_, let values): return "[" + values.map(display).joined(separator: ", ") + "]"
        default: return value.signedValue.map(String.init) ?? value.unsignedValue.map(String.init) ?? "?"
        }
    }

    /// The allowed values or range, as shown.
    public func allowed(_ description: DevicePropertyDescription) -> String {
        switch description.form {
        case .none: return description.dataType == .string ? "text" : "any"
        case .enumeration(let values): return values.map(display).joined(separator: ", ")
        case .range(let minimum, let maximum, let step):
            let stepText = step.unsignedValue == 1 ? "" : " step \(display(step))"
            return "\(display(minimum))..\(display(maximum))" + stepText
        }
    }

    /// The value a user typed: one of the allowed values as shown or as a number, a number within the range,
    /// a date for the clock; nil when it is none of them (the caller says what is allowed).
    public func parse(_ text: String, for description: DevicePropertyDescription) -> PTPValue? {
        let typed = text.trimmingCharacters(in: .whitespaces)
        let candidates: [PTPValue]
        if case .enumeration(let values) = description.form { candidates = values } else { candidates = [] }
        if let match = candidates.first(where: { display($0).lowercased() == typed.lowercased() }) { return match }
        var value: PTPValue?
        if description.dataType == .string {
            if code == .dateTime {
                guard let date = Self.parseDate(typed) else { return nil }
                value = .string(PTPDateTime.format(date))
            } else {
                value = .string(typed)
            }
        } else if let number = Self.number(typed) {
            value = PTPValue.integer(number, as: description.dataType)
        }
        guard let value, description.allows(value) else { return nil }
        return value
    }

    /// Every allowed value as typed (for completion and error messages), empty for ranges and free text.
    public func choices(_ description: DevicePropertyDescription) -> [String] {
        guard case .enumeration(let values) = description.form else { return [] }
        return values.map(display)
    }

    /// What Tab offers for a value: every allowed value, every step of a range of at most
    /// `completedRangeLimit` values, only the ends of a wider one (nobody picks among thousands by Tab),
    /// nothing for free text.
    public func completions(_ description: DevicePropertyDescription) -> [String] {
        switch description.form {
        case .none: return []
        case .enumeration: return choices(description)
        case .range(let minimum, let maximum, let step):
            guard let low = minimum.signedValue, let high = maximum.signedValue, high >= low else { return [] }
            let stride = max(1, step.signedValue ?? 1)
            guard (high - low) / stride < Self.completedRangeLimit else { return [display(minimum), display(maximum)] }
            return Swift.stride(from: low, through: high, by: Int(stride)).compactMap { n in
                PTPValue.integer(n, as: description.dataType).map(display)
            }
        }
    }

    public static let completedRangeLimit: Int64 = 32

    private static func number(_ text: String) -> Int64? {
        var t = text.lowercased()
        if t.hasSuffix("%") { t.removeLast() }
        if t.hasPrefix("0x") { return Int64(t.dropFirst(2), radix: 16) }
        return Int64(t)
    }

    /// "1/250" below a second, "2.5s" above, from tenths of a millisecond.
    static func exposure(_ tenthsOfMillisecond: UInt64) -> String {
        if tenthsOfMillisecond == 0 { return "0" }
        if tenthsOfMillisecond < 10000 {
            return "1/\(Int((10000.0 / Double(tenthsOfMillisecond)).rounded()))"
        }
        let seconds = Double(tenthsOfMillisecond) / 10000
        return seconds == seconds.rounded() ? "\(Int(seconds))s" : "\(seconds)s"
    }

    static var dateFormatter: DateFormatter {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return f
    }

    /// "2026-12-01 10:30:00", "2026-12-01T10:30:00" or PTP's "20261201T103000", in local time.
    static func parseDate(_ text: String) -> Date? {
        if let date = dateFormatter.date(from: text.replacingOccurrences(of: "T", with: " ")) { return date }
        return PTPDateTime.parse(text)
    }

    private static func hex(_ v: UInt16) -> String {
        let digits = String(v, radix: 16)
        return String(repeating: "0", count: 4 - digits.count) + digits
    }
}
