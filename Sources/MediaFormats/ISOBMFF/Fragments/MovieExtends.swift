/// What the movie box says about the fragments that follow it (`mvex`, ISO/IEC 14496-12 8.8.1): the
/// per-track defaults that `trun` entries leave out (`trex`) and, when given, the whole length (`mehd`).
struct MovieExtends: Sendable {
    /// `trex`: defaults for the samples of one track's fragments.
    struct TrackDefaults: Sendable {
        var duration: UInt32
        var size: UInt32
        var flags: UInt32
    }

    /// Defaults by track ID.
    var defaults: [UInt32: TrackDefaults] = [:]
    /// The fragmented movie's duration in the movie timescale (`mehd`), when the muxer knew it.
    var fragmentDuration: UInt64?

    init(_ mvex: Box, depth: Int, budget: inout BoxBudget) throws {
        for child in try mvex.children(depth: depth, budget: &budget) {
            switch child.type {
            case "trex":
                var (_, _, cursor) = try child.fullBoxPayload()
                let trackID = try cursor.readUInt32()
                _ = try cursor.readUInt32()  // default sample description index
                defaults[trackID] = TrackDefaults(
                    duration: try cursor.readUInt32(), size: try cursor.readUInt32(), flags: try cursor.readUInt32())
            case "mehd":
                var (version, _, cursor) = try child.fullBoxPayload()
                let value = version == 1 ? try cursor.readUInt64() : UInt64(try cursor.readUInt32())
                fragmentDuration = value > 0 ? value : nil
            default:
                break
            }
        }
    }
}

/// The sample flags of ISO/IEC 14496-12 8.8.3.1: bit 16 marks a sample that is not a sync sample.
enum SampleFlags {
    static func isSync(_ flags: UInt32) -> Bool { flags & 0x0001_0000 == 0 }
}
