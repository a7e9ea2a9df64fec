import Foundation
import MediaFormats
import MediaManager

/// When a file was taken: EXIF DateTimeOriginal for a JPEG that has it (read from the camera with a few
/// partial reads of its header, or from the first bytes of its download), else the date the device lists,
/// else nil.
public enum CaptureTime {
    /// True when `file`'s own bytes may hold its capture time (a JPEG's EXIF).
    public static func readsContent(of file: MediaFile) -> Bool { file.kind == .jpeg }

    /// The capture time of `file`; `source` gives random access to it (on the camera, or its first bytes
    /// already read).
    public static func resolve(_ file: MediaFile, source: () -> (any ByteRangeSource)?) -> Date? {
        if readsContent(of: file), let source = source(), let exif = try? JPEGReader().read(from: source).exif,
            let text = exif.dateTimeOriginal ?? exif.dateTime, let date = parseExif(text)
        {
            return date
        }
        return file.captureDate
    }

    /// "2024:05:01 10:12:03" (EXIF's form, local time of the camera) as a date in `zone`.
    public static func parseExif(_ text: String, zone: TimeZone = .current) -> Date? {
        let digits = Array(text.utf8.prefix(19))
        guard digits.count == 19 else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var v = 0
            for i in range {
                let d = digits[i]
                guard d >= 48, d <= 57 else { return nil }
                v = v * 10 + Int(d - 48)
            }
            return v
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61, year > 1900
        else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar.date(
            from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second))
    }
}
