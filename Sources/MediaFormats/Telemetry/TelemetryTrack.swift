import Foundation

/// What a DJI clip's `.SRT` says at one moment: the cue shown then, with the place, the altitudes and the
/// exposure the drone wrote for it (each nil where it wrote none).
public struct TelemetryCue: Sendable, Equatable, Encodable {
    /// When the cue is shown, in seconds from the clip's start.
    public var from: Double
    public var to: Double
    /// The position, only when the receiver had a fix.
    public var point: GeoPoint?
    /// Metres above the take-off point.
    public var relative: Double?
    /// Metres above sea level.
    public var absolute: Double?
    /// An altitude the drone does not say the reference of (`[altitude: 35.1]`).
    public var unspecified: Double?
    public var iso: Double?
    /// As written: `1/640.0`.
    public var shutter: String?
    /// The f-number (`fnum: 170`, as some drones write f/1.7, is read as 1.7).
    public var fnumber: Double?
    public var exposureBias: Double?
}

/// Every cue of a DJI clip's `.SRT`, to look up the one shown at a moment of the clip (`status` while a
/// video is paused). Cues without times are left out; the rest are kept in time order.
public struct TelemetryTrack: Sendable {
    public let cues: [TelemetryCue]

    /// Reads `bytes` (a whole `.SRT`, UTF-8).
    public init(srt bytes: [UInt8]) {
        var cues: [TelemetryCue] = []
        FlightSummary.eachCue(bytes) { values in
            guard let from = values.from, let to = values.to else { return }
            let point = values.point.flatMap { $0.isFix ? $0 : nil }
            let fnumber = values.fnumber.map { $0 > 30 ? $0 / 100 : $0 }
            cues.append(TelemetryCue(
                from: from, to: to, point: point, relative: values.relative, absolute: values.absolute,
                unspecified: values.unspecified, iso: values.iso, shutter: values.shutter, fnumber: fnumber,
                exposureBias: values.exposureBias))
        }
        if !zip(cues, cues.dropFirst()).allSatisfy({ $0.from <= $1.from }) { cues.sort { $0.from < $1.from } }
        self.cues = cues
    }

    /// The cue shown at `seconds`: the last one starting at or before it, while it lasts (nil between cues,
    /// before the first and after the last).
    public func cue(at seconds: Double) -> TelemetryCue? {
        var low = 0
        var high = cues.count
        while low < high {
            let middle = (low + high) / 2
            if cues[middle].from <= seconds { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return nil }
        let cue = cues[low - 1]
        return seconds < cue.to ? cue : nil
    }
}
