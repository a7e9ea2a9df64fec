/// One entry of a track's edit list (`elst`, ISO/IEC 14496-12 8.6.6): a stretch of the track's presentation
/// timeline that shows media from `mediaTime` on, or nothing (an empty edit).
public struct EditListEntry: Sendable, Equatable {
    /// How long the stretch lasts on the timeline, in the movie's timescale (`mvhd`).
    public var segmentDuration: UInt64
    /// The first media time shown, in the track's timescale (`mdhd`); -1 for an empty edit.
    public var mediaTime: Int64
    /// The playback rate as a 16.16 number; 1.0 (0x10000) for every edit this reader plays.
    public var rate: Int32

    public init(segmentDuration: UInt64, mediaTime: Int64, rate: Int32 = 0x10000) {
        self.segmentDuration = segmentDuration
        self.mediaTime = mediaTime
        self.rate = rate
    }

    /// True for an edit that shows nothing for its duration.
    public var isEmpty: Bool { mediaTime == -1 }

    /// The rate as a number (1.0 normal, 0 a held frame, 0.5 half speed).
    public var rateValue: Double { Double(rate) / 65536 }

    /// What the rate does, for messages: "at rate 0.5 (slow motion)", "at rate 0 (a held frame)".
    public var rateDescription: String { Self.rateWords(rate) }

    /// `at rate 0.5 (slow motion)` for a 16.16 `rate`.
    public static func rateWords(_ rate: Int32) -> String {
        let value = Double(rate) / 65536
        let number = value == value.rounded() ? String(Int(value)) : String(value)
        let meaning = value == 0 ? "a held frame" : value < 0 ? "played backwards" : value < 1 ? "slow motion" : "fast motion"
        return "at rate \(number) (\(meaning))"
    }
}

extension EditListEntry {
    /// The most edit-list entries read from one track: far more than any real edit needs, few enough that a
    /// hostile count cannot cost much.
    static let maxEntries = 4096

    /// Every entry of an `elst` box, checked against the box's size before anything is allocated.
    static func parse(_ box: Box) throws -> [EditListEntry] {
        var (version, _, cursor) = try box.fullBoxPayload()
        let count = try cursor.readUInt32()
        try cursor.requireEntries(UInt64(count), of: version == 1 ? 20 : 12, "edit list entries")
        guard count <= maxEntries else {
            throw MediaFormatError(.tooMany(.entries(box: "elst"), count: UInt64(count), limit: maxEntries), offset: box.fileOffset)
        }
        var entries: [EditListEntry] = []
        entries.reserveCapacity(Int(count))
        for _ in 0..<count {
            let duration: UInt64
            let mediaTime: Int64
            if version == 1 {
                duration = try cursor.readUInt64()
                mediaTime = try cursor.readInt64()
            } else {
                duration = UInt64(try cursor.readUInt32())
                mediaTime = Int64(try cursor.readInt32())
            }
            let rate = try cursor.readInt32()
            guard mediaTime >= -1, mediaTime < Int64.max / 4, duration < UInt64.max / 4 else {
                throw MediaFormatError(.invalidField(box: "elst", field: "media time", value: mediaTime), offset: box.fileOffset)
            }
            entries.append(EditListEntry(segmentDuration: duration, mediaTime: mediaTime, rate: rate))
        }
        return entries
    }

    /// How far composition times move so the first shown edit's media time sits at its place on the
    /// timeline: its media time, less any leading empty edits, in media units. Used for each sample's
    /// `presentationTime` (what ffprobe reports as a packet's pts); the full timeline is `TrackTimeline`.
    static func firstShift(_ entries: [EditListEntry], movieTimescale: UInt32, mediaTimescale: UInt32) -> Int64 {
        var emptyDelay: UInt64 = 0
        for entry in entries {
            if entry.isEmpty {
                emptyDelay = emptyDelay &+ entry.segmentDuration
                continue
            }
            let delay = MediaTime.rescale(emptyDelay, from: movieTimescale, to: mediaTimescale)
            return entry.mediaTime - delay
        }
        return 0
    }
}

/// Conversions between timescales without overflow or drift.
enum MediaTime {
    /// `value` units of `from` per second as units of `to`, rounded to the nearest; saturates far past any
    /// real duration instead of overflowing.
    static func rescale(_ value: UInt64, from: UInt32, to: UInt32) -> Int64 {
        guard from != to else { return Int64(min(value, UInt64(Int64.max / 4))) }
        let product = value.multipliedFullWidth(by: UInt64(to))
        let divisor = UInt64(max(from, 1))
        guard product.high < divisor else { return Int64.max / 4 }
        let (quotient, remainder) = divisor.dividingFullWidth(product)
        let rounded = quotient + (remainder * 2 >= divisor ? 1 : 0)
        return Int64(min(rounded, UInt64(Int64.max / 4)))
    }
}
