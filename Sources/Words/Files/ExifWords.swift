import Foundation
import MediaFormats
import TextKit

/// What a photo's EXIF and a clip's `.SRT` say, as `info` shows them: a place in degrees with its
/// hemispheres and a map link, exposure as photographers write it (`1/250 s`, `f/2.8`, `+0.7 EV`), and
/// every tag by exiftool's name for `info --all`. Only what the file says: nothing stands in for a tag it
/// does not have.
public enum ExifWords {
    /// `46.519653° N, 6.632273° E`, six decimals (about 10 cm).
    public static func place(_ point: GeoPoint, hemispheres: Bool = true) -> String {
        guard hemispheres else { return degrees(point.latitude) + "°, " + degrees(point.longitude) + "°" }
        let north = degrees(abs(point.latitude)) + "° " + (point.latitude < 0 ? "S" : "N")
        let east = degrees(abs(point.longitude)) + "° " + (point.longitude < 0 ? "W" : "E")
        return north + ", " + east
    }

    /// A link to the place on OpenStreetMap, as text.
    public static func mapLink(_ point: GeoPoint) -> String {
        "https://www.openstreetmap.org/?mlat=\(degrees(point.latitude))&mlon=\(degrees(point.longitude))"
    }

    static func degrees(_ value: Double) -> String { String(format: "%.6f", value) }

    /// `1/250 s` below a quarter second, `0.5 s`, `2 s`, `30 s` above.
    public static func shutter(_ seconds: Double) -> String {
        if seconds > 0, seconds <= 0.25 { return "1/\(Int((1 / seconds).rounded())) s" }
        return decimal(seconds, places: 1) + " s"
    }

    /// `f/2.8`, `f/11`.
    public static func aperture(_ fNumber: Double) -> String { "f/" + decimal(fNumber, places: 1) }

    /// `+0.7 EV`, `-1.3 EV`, `0 EV`.
    public static func bias(_ ev: Double) -> String {
        let text = decimal(abs(ev), places: 1)
        if text == "0" { return "0 EV" }
        return (ev < 0 ? "-" : "+") + text + " EV"
    }

    /// `24 mm`, `4.5 mm`.
    public static func millimetres(_ value: Double) -> String { decimal(value, places: 1) + " mm" }

    /// `120.5 m`, `35 m`, `402.25 m`: to the millimetre, as written.
    public static func metres(_ value: Double) -> String { decimal(value, places: 3) + " m" }

    /// At most `places` decimals, without trailing zeros: 2.8, 11, 0.7.
    static func decimal(_ value: Double, places: Int) -> String {
        var text = String(format: "%.\(places)f", value)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text == "-0" ? "0" : text
    }

    /// The rows `info` adds for a photo: camera and serial, lens, exposure, focal length, place and map
    /// link, altitude. None for what the file does not say.
    public static func rows(_ details: ExifDetails) -> [[String]] {
        var rows: [[String]] = []
        let camera = maker(details.make, of: details.model)
        if !camera.isEmpty { rows.append(["taken with:", SafeText.display(camera)]) }
        if let serial = details.serialNumber { rows.append(["serial:", SafeText.display(serial)]) }
        let lens = maker(details.lensMake, of: details.lensModel)
        if !lens.isEmpty { rows.append(["lens:", SafeText.display(lens)]) }
        let exposure = [
            details.exposureTime?.value.map(shutter), details.fNumber.map(aperture), details.iso.map { "ISO \($0)" },
            details.exposureBias.map(bias),
        ].compactMap { $0 }
        if !exposure.isEmpty { rows.append(["exposure:", exposure.joined(separator: ", ")]) }
        if let focal = details.focalLength {
            let equivalent = details.focalLength35.map { " (\($0) mm in 35 mm terms)" } ?? ""
            rows.append(["focal length:", millimetres(focal) + equivalent])
        } else if let equivalent = details.focalLength35 {
            rows.append(["focal length:", "\(equivalent) mm in 35 mm terms"])
        }
        if let latitude = details.latitude, let longitude = details.longitude {
            let point = GeoPoint(latitude: latitude, longitude: longitude)
            rows.append(["place:", place(point, hemispheres: details.hemispheresGiven)])
            if details.hemispheresGiven { rows.append(["map:", mapLink(point)]) }
        }
        if let altitude = details.altitude { rows.append(["altitude:", altitudeText(altitude, details.altitudeReference)]) }
        return rows
    }

    /// A model with its maker first, unless the model already starts with it (`Canon EOS R5`, not
    /// `Canon Canon EOS R5`); either alone when the other is not given.
    static func maker(_ make: String?, of model: String?) -> String {
        guard let model else { return make ?? "" }
        guard let make, !model.lowercased().hasPrefix(make.lowercased()) else { return model }
        return make + " " + model
    }

    /// `120.5 m above sea level`, `12 m below sea level`, `120.5 m` (no reference given).
    static func altitudeText(_ metres: Double, _ reference: ExifDetails.AltitudeReference?) -> String {
        switch reference {
        case .aboveSeaLevel: self.metres(metres) + " above sea level"
        case .belowSeaLevel: self.metres(metres) + " below sea level"
        case .other(let value): self.metres(metres) + " (altitude reference \(value))"
        case nil: self.metres(metres)
        }
    }

    // MARK: info --all

    /// Every tag, one row each: exiftool's description, and the value as `exiftool -n` prints it.
    public static func allRows(_ tags: [ExifTag]) -> [[String]] {
        tags.map { [$0.description + ":", SafeText.display(value($0))] }
    }

    /// A tag's value as `exiftool -n` prints it: numbers in decimal (rationals divided, a GPS latitude or
    /// longitude in decimal degrees, APEX values converted), the GPS time as `10:12:03.5`, texts as
    /// written, a large binary value by its size.
    public static func value(_ tag: ExifTag) -> String {
        if let converted = tag.converted { return number(converted) }
        if tag.directory == .gps, tag.id == 0x07, case .rational(let parts) = tag.value, parts.count == 3,
            let hours = parts[0].value, let minutes = parts[1].value, let seconds = parts[2].value
        {
            func two(_ value: Double) -> String { (value < 10 ? "0" : "") + number(value) }
            return two(hours) + ":" + two(minutes) + ":" + two(seconds)
        }
        return value(tag.value)
    }

    /// The most values of one tag shown; more are counted.
    static let shownValues = 32

    /// A value as text: `0.004`, `2 3 0 0`, `DJI`, `(binary, 1234 bytes)`.
    public static func value(_ value: ExifValue) -> String {
        let parts: [String]
        switch value {
        case .text(let text): return text
        case .binary(let count): return "(binary, \(count) bytes)"
        case .bytes(let bytes): parts = bytes.map { String($0) }
        case .unsigned(let values): parts = values.map { String($0) }
        case .signed(let values): parts = values.map { String($0) }
        case .rational(let values): parts = values.map { $0.value.map(number) ?? "undef" }
        case .real(let values): parts = values.map(number)
        }
        let shown = parts.prefix(shownValues).joined(separator: " ")
        return parts.count > shownValues ? shown + " ... (\(parts.count) values)" : shown
    }

    /// A number with up to ten significant digits, as exiftool prints one: `0.004`, `2.8`, `120.5`.
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf") }
        return String(format: "%.10g", value)
    }
}
