/// How positions and durations are written for people: `m:ss.f` (`0:02.4`, `12:03.0`), `h:mm:ss.f` past an
/// hour; rounded to whole seconds without the tenth when `tenths` is false (`0:45`).
public enum TimeText {
    public static func format(_ seconds: Double, tenths: Bool = true) -> String {
        guard seconds.isFinite else { return "?" }
        let sign = seconds < 0 ? "-" : ""
        let scale = tenths ? 10.0 : 1.0
        let units = Int((abs(seconds) * scale).rounded())
        let whole = tenths ? units / 10 : units
        let hours = whole / 3600
        let minutes = (whole / 60) % 60
        let secs = whole % 60
        let two = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
        var text = hours > 0 ? "\(sign)\(hours):\(two(minutes)):\(two(secs))" : "\(sign)\(minutes):\(two(secs))"
        if tenths { text += ".\(units % 10)" }
        return text
    }
}
