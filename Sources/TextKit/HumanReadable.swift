/// Sizes, rates and durations written for people: `1.2 MB`, `31.4 MB/s`, `1:02:03`.
public enum HumanReadable {
    private static let units = ["B", "kB", "MB", "GB", "TB", "PB", "EB"]

    /// A byte count in decimal units with one decimal under 100: `999 B`, `1.2 MB`, `12.3 GB`, `123 MB`.
    public static func size(_ bytes: UInt64) -> String {
        if bytes < 1000 { return "\(bytes) B" }
        let last = units.count - 1
        var unitIndex = 1
        var unit: UInt64 = 1000
        while unitIndex < last && bytes / unit >= 1000 {
            unit *= 1000
            unitIndex += 1
        }
        while true {
            let (whole, remainder) = bytes.quotientAndRemainder(dividingBy: unit)
            if whole >= 100 {
                let rounded = whole + (remainder >= unit - remainder ? 1 : 0)
                if rounded >= 1000 && unitIndex < last {
                    unit *= 1000
                    unitIndex += 1
                    continue
                }
                return "\(rounded) \(units[unitIndex])"
            }
            // Tenths, rounded half up; remainder * 10 cannot overflow as unit <= 10^18.
            let tenths = whole * 10 + (remainder * 10 + unit / 2) / unit
            if tenths >= 1000 { return "100 \(units[unitIndex])" }
            return "\(tenths / 10).\(tenths % 10) \(units[unitIndex])"
        }
    }

    /// A size that may be negative (a difference).
    public static func size(_ bytes: Int64) -> String {
        bytes < 0 ? "-" + size(bytes.magnitude) : size(UInt64(bytes))
    }

    /// A transfer rate: `31.4 MB/s`.
    public static func rate(bytesPerSecond: Double) -> String {
        guard bytesPerSecond.isFinite, bytesPerSecond >= 0 else { return "-- B/s" }
        return size(bytesPerSecond >= Double(UInt64.max) ? UInt64.max : UInt64(bytesPerSecond)) + "/s"
    }

    /// A duration as `m:ss` or `h:mm:ss`, rounded to whole seconds; `--:--` when unknown or absurd.
    public static func duration(seconds: Double) -> String {
        guard seconds.isFinite, seconds >= 0, seconds < 360_000 else { return "--:--" }
        let total = Int(seconds.rounded())
        let (hours, minutes, secs) = (total / 3600, total / 60 % 60, total % 60)
        let twoDigits = { (n: Int) in n < 10 ? "0\(n)" : "\(n)" }
        return hours > 0 ? "\(hours):\(twoDigits(minutes)):\(twoDigits(secs))" : "\(minutes):\(twoDigits(secs))"
    }
}
