/// How positions and durations are written for people: `m:ss.f` (`0:02.4`, `12:03.0`), `h:mm:ss.f` past an
/// hour; rounded to whole seconds without the tenth when `tenths` is false (`0:45`).
public enum TimeText {
    public static func format(_ seconds: Double, tenths: Bool = true) -> String {
        format(seconds, decimals: tenths ? 1 : 0)
    }

    /// A frame's time, to the hundredth (`0:25.48`): tenths cannot tell apart the frames of a clip at more
    /// than 10 fps.
    public static func frameTime(_ seconds: Double) -> String {
        format(seconds, decimals: 2)
    }

    private static func format(_ seconds: Double, decimals: Int) -> String {
        guard seconds.isFinite else { return "?" }
        let sign = seconds < 0 ? "-" : ""
        let scale = [1, 10, 100][decimals]
        let units = Int((abs(seconds) * Double(scale)).rounded())
        let whole = units / scale
        let hours = whole / 3600
        let minutes = (whole / 60) % 60
        let secs = whole % 60
        let two = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
        var text = hours > 0 ? "\(sign)\(hours):\(two(minutes)):\(two(secs))" : "\(sign)\(minutes):\(two(secs))"
        if decimals == 1 { text += ".\(units % 10)" }
        if decimals == 2 { text += "." + two(units % 100) }
        return text
    }
}
