/// The one-line description of a running transfer: `DJI_0001.MP4  45%  1.2 GB of 2.7 GB  31.4 MB/s  ETA 0:48`.
public enum ProgressLine {
    /// The line for a transfer, exactly `width` cells or fewer: the name is cut or padded so the figures line up.
    /// `total` nil means unknown length (no percent, no ETA); a `done` past `total` shows 100%.
    public static func format(
        name: String, done: UInt64, total: UInt64?, bytesPerSecond: Double?, width: Int
    ) -> String {
        var figures: [String] = []
        if let total {
            let percent = total == 0 ? 100 : Int(min(100, Double(done) / Double(total) * 100))
            let percentText = "\(percent)%"
            figures.append(String(repeating: " ", count: max(0, 4 - percentText.count)) + percentText)
            figures.append("\(HumanReadable.size(done)) of \(HumanReadable.size(total))")
        } else {
            figures.append(HumanReadable.size(done))
        }
        if let rate = bytesPerSecond, rate.isFinite, rate >= 0 {
            figures.append(HumanReadable.rate(bytesPerSecond: rate))
        } else {
            figures.append("-- B/s")
        }
        if let total {
            let remaining = Double(total > done ? total - done : 0)
            if remaining == 0 {
                figures.append("ETA 0:00")
            } else if let rate = bytesPerSecond, rate > 0 {
                figures.append("ETA " + HumanReadable.duration(seconds: remaining / rate))
            } else {
                figures.append("ETA --:--")
            }
        }
        let stats = figures.joined(separator: "  ")
        let statsWidth = TerminalWidth.of(stats)
        let nameWidth = width - statsWidth - 2
        guard nameWidth >= 4 else { return TerminalWidth.truncate(stats, to: width) }
        let shownName = TerminalWidth.truncate(SafeText.display(name), to: nameWidth)
        return TerminalWidth.pad(shownName, to: nameWidth) + "  " + stats
    }
}
