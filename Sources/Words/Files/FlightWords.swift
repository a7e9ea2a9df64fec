import MediaFormats
import TerminalKit

/// What `info` shows of a flight from a DJI `.SRT`: how long it recorded, where it started and ended (with
/// a map link to the start) and how high it went.
public enum FlightWords {
    /// The rows, `srt` naming the file read; none for what the file does not say.
    public static func rows(_ flight: FlightSummary, from srt: String) -> [[String]] {
        let records = "\(flight.cueCount) record" + (flight.cueCount == 1 ? "" : "s")
        let length = flight.duration.map { HumanReadable.duration(seconds: $0) + " in " } ?? ""
        var rows: [[String]] = [["flight:", length + SafeText.display(srt) + " (\(records))"]]
        if let start = flight.start { rows.append(["from:", ExifWords.place(start)]) }
        if let end = flight.end { rows.append(["to:", ExifWords.place(end)]) }
        if let start = flight.start { rows.append(["map:", ExifWords.mapLink(start)]) }
        let highest = [
            flight.highestRelative.map { ExifWords.metres($0) + " above take-off" },
            flight.highestAbsolute.map { ExifWords.metres($0) + " above sea level" },
            flight.highestUnspecified.map { ExifWords.metres($0) + " (altitude; the SRT says not from where)" },
        ].compactMap { $0 }
        if !highest.isEmpty { rows.append(["highest:", highest.joined(separator: ", ")]) }
        return rows
    }
}
