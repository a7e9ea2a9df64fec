import Foundation
import MediaFormats
import TextKit

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

extension FlightWords {
    /// What `status` adds for a paused or playing drone clip: the `.SRT` cue shown at that moment, such as
    /// `telemetry: 46.519656° N, 6.632278° E  30.0 m above take-off, 402.0 m above sea level  ISO 100  1/640.0 s
    /// f/1.7  EV 0`; nil for a cue that holds none of these.
    public static func telemetryLine(_ cue: TelemetryCue) -> String? {
        var parts: [String] = []
        if let point = cue.point { parts.append(ExifWords.place(point)) }
        let heights = [
            cue.relative.map { ExifWords.metres($0) + " above take-off" },
            cue.absolute.map { ExifWords.metres($0) + " above sea level" },
            cue.unspecified.map { ExifWords.metres($0) + " altitude" },
        ].compactMap { $0 }
        if !heights.isEmpty { parts.append(heights.joined(separator: ", ")) }
        var exposure: [String] = []
        if let iso = cue.iso { exposure.append("ISO \(Int(iso))") }
        if let shutter = cue.shutter { exposure.append(SafeText.display(shutter) + " s") }
        if let fnumber = cue.fnumber { exposure.append(String(format: "f/%.1f", fnumber)) }
        if let bias = cue.exposureBias { exposure.append("EV " + (bias == bias.rounded() ? String(Int(bias)) : String(format: "%+.1f", bias))) }
        if !exposure.isEmpty { parts.append(exposure.joined(separator: "  ")) }
        return parts.isEmpty ? nil : "telemetry: " + parts.joined(separator: "  ")
    }
}
