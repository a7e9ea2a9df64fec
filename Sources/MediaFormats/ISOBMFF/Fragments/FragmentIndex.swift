/// Where a fragmented movie's fragments are and when their keyframes are shown, from an index the muxer
/// wrote, so a long recording is understood without reading a header per fragment (over a camera link each
/// read is a round trip): a segment index (`sidx`, ISO/IEC 14496-12 8.16.3) after the movie box, or the
/// movie fragment random access box (`mfra`/`tfra`, 8.8.10) that closes the file, found through `mfro`.
struct FragmentIndex: Equatable {
    /// One indexed keyframe.
    struct Entry: Equatable {
        /// Where the movie fragment box (`moof`) holding the keyframe starts.
        var moofOffset: UInt64
        /// When the keyframe is shown, in the track's timescale: a composition time (`tfra`), or the time
        /// since the first fragment's earliest presentation (`sidx`); see `timesAreRelative`.
        var time: Int64
    }

    /// The keyframes, in file order.
    var entries: [Entry]
    /// True when `time` counts from the first fragment's earliest shown sample (a `sidx`), false when it is
    /// the sample's composition time (a `tfra`).
    var timesAreRelative: Bool
    /// Where the last indexed fragment's data ends (its `mdat`'s end), when the index says (`sidx`).
    var indexedEnd: UInt64?

    /// The distinct fragments indexed, in file order.
    var fragmentOffsets: [UInt64] {
        var offsets: [UInt64] = []
        for entry in entries where entry.moofOffset != offsets.last { offsets.append(entry.moofOffset) }
        return offsets
    }

    /// The most entries accepted from one index: far more than any recording's fragments.
    static let maxEntries = 2_000_000

    /// A `sidx` box whose references are media segments (not other indexes), each starting with a keyframe;
    /// nil when the index is one this reader cannot use that way. `sidxEnd` is where the box ends (the
    /// anchor its offsets count from), `trackID` and `trackTimescale` those of the video track.
    static func segmentIndex(_ sidx: Box, sidxEnd: UInt64, trackID: UInt32, trackTimescale: UInt32) throws -> FragmentIndex? {
        var (version, _, cursor) = try sidx.fullBoxPayload()
        let referenceID = try cursor.readUInt32()
        let timescale = try cursor.readUInt32()
        let earliest: UInt64
        let firstOffset: UInt64
        if version == 0 {
            earliest = UInt64(try cursor.readUInt32())
            firstOffset = UInt64(try cursor.readUInt32())
        } else {
            earliest = try cursor.readUInt64()
            firstOffset = try cursor.readUInt64()
        }
        _ = try cursor.readUInt16()  // reserved
        let count = Int(try cursor.readUInt16())
        try cursor.requireEntries(UInt64(count), of: 12, "segment index references")
        guard referenceID == trackID, timescale > 0, earliest < UInt64(Int64.max / 4) else { return nil }
        var entries: [Entry] = []
        entries.reserveCapacity(count)
        var (offset, overflow) = sidxEnd.addingReportingOverflow(firstOffset)
        var time: UInt64 = 0
        for _ in 0..<count {
            let typeAndSize = try cursor.readUInt32()
            let duration = try cursor.readUInt32()
            let sap = try cursor.readUInt32()
            // A reference to another index, or a segment that does not start with a keyframe: not usable.
            guard typeAndSize >> 31 == 0, sap >> 31 == 1, !overflow else { return nil }
            let delta = UInt64(sap & 0x0FFF_FFFF)
            entries.append(.init(
                moofOffset: offset,
                time: MediaTime.rescale(time + delta, from: timescale, to: trackTimescale)))
            (offset, overflow) = offset.addingReportingOverflow(UInt64(typeAndSize & 0x7FFF_FFFF))
            time += UInt64(duration)
            guard time < UInt64(Int64.max / 4) else { return nil }
        }
        guard !entries.isEmpty, !overflow else { return nil }
        return FragmentIndex(entries: entries, timesAreRelative: true, indexedEnd: offset)
    }

    /// The `tfra` of `trackID` inside an `mfra` box; nil when there is none.
    static func randomAccess(_ mfra: Box, trackID: UInt32, budget: inout BoxBudget) throws -> FragmentIndex? {
        for tfra in try mfra.children(depth: 1, budget: &budget) where tfra.type == "tfra" {
            var (version, _, cursor) = try tfra.fullBoxPayload()
            guard try cursor.readUInt32() == trackID else { continue }
            let lengths = try cursor.readUInt32()
            let count = try cursor.readUInt32()
            // time and moof offset, then the traf, trun and sample numbers in 1 to 4 bytes each.
            let numberBytes = [(lengths >> 4) & 3, (lengths >> 2) & 3, lengths & 3].map { Int($0) + 1 }
            let entrySize = (version == 1 ? 16 : 8) + numberBytes.reduce(0, +)
            try cursor.requireEntries(UInt64(count), of: entrySize, "random access entries")
            guard count <= maxEntries else {
                throw MediaFormatError(.tooMany(.entries(box: "tfra"), count: UInt64(count), limit: maxEntries), offset: tfra.fileOffset)
            }
            var entries: [Entry] = []
            entries.reserveCapacity(Int(count))
            for _ in 0..<count {
                let time = version == 1 ? try cursor.readUInt64() : UInt64(try cursor.readUInt32())
                let moof = version == 1 ? try cursor.readUInt64() : UInt64(try cursor.readUInt32())
                try cursor.skip(numberBytes.reduce(0, +))
                guard time < UInt64(Int64.max / 4) else { return nil }
                entries.append(.init(moofOffset: moof, time: Int64(time)))
            }
            guard !entries.isEmpty else { return nil }
            return FragmentIndex(entries: entries, timesAreRelative: false, indexedEnd: nil)
        }
        return nil
    }
}
