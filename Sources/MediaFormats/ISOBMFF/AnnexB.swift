/// H.264 and H.265 video as a raw stream (ITU-T H.264 Annex B): NAL units each after a `00 00 00 01` start
/// code. MP4 files keep the parameter sets in the sample entry (`avcC`, `hvcC`) and each NAL unit behind a
/// length field instead; a decoder fed from a pipe (ffmpeg `-f h264`) wants the raw form. This turns a
/// keyframe sample (and the samples after it) and its track's configuration into a stream that decodes on its
/// own.
public enum AnnexB {
    /// The codec of a configuration, from the sample entry's format.
    public enum Codec: Sendable, Equatable {
        /// `avc1`/`avc3` with an `avcC` box.
        case h264
        /// `hvc1`/`hev1` with an `hvcC` box.
        case h265

        /// The codec for a sample entry format, nil for one this does not handle.
        public init?(format: FourCC) {
            switch format {
            case "avc1", "avc3": self = .h264
            case "hvc1", "hev1": self = .h265
            default: return nil
            }
        }
    }

    /// What a decoder needs before the first picture: the parameter sets (VPS for H.265, SPS, PPS) and the
    /// size of the length field in front of each NAL unit in the samples.
    public struct Configuration: Sendable, Equatable {
        public var parameterSets: [[UInt8]]
        /// 1, 2 or 4 bytes.
        public var lengthSize: Int

        /// Reads an `avcC` (H.264) or `hvcC` (H.265) payload.
        public init(_ payload: [UInt8], codec: Codec) throws {
            var cursor = ByteCursor(payload, what: codec == .h264 ? "the avcC box" : "the hvcC box")
            var sets: [[UInt8]] = []
            switch codec {
            case .h264:
                try cursor.skip(4)  // version, profile, compatibility, level
                lengthSize = Int(try cursor.readUInt8() & 0x03) + 1
                let spsCount = Int(try cursor.readUInt8() & 0x1F)
                for _ in 0..<spsCount { sets.append(try Self.unit(&cursor)) }
                let ppsCount = Int(try cursor.readUInt8())
                for _ in 0..<ppsCount { sets.append(try Self.unit(&cursor)) }
            case .h265:
                try cursor.skip(21)  // version, profile, tier, level and format fields
                lengthSize = Int(try cursor.readUInt8() & 0x03) + 1
                let arrays = Int(try cursor.readUInt8())
                for _ in 0..<arrays {
                    _ = try cursor.readUInt8()  // completeness and NAL unit type
                    let count = Int(try cursor.readUInt16())
                    for _ in 0..<count { sets.append(try Self.unit(&cursor)) }
                }
            }
            guard lengthSize != 3 else {
                throw MediaFormatError(.nalLengthSize(3))
            }
            guard !sets.isEmpty else {
                throw MediaFormatError(.noParameterSets)
            }
            parameterSets = sets
        }

        private static func unit(_ cursor: inout ByteCursor) throws -> [UInt8] {
            let length = Int(try cursor.readUInt16())
            return try cursor.readBytes(length)
        }
    }

    static let startCode: [UInt8] = [0, 0, 0, 1]

    /// The parameter sets, then every NAL unit of `sample` (length-prefixed), each behind a start code.
    /// Throws when a length runs past the sample.
    public static func stream(_ configuration: Configuration, sample: [UInt8]) throws -> [UInt8] {
        try stream(configuration, samples: [sample])
    }

    /// The parameter sets, then every NAL unit of each of `samples` in turn (decode order: a keyframe and the
    /// frames that follow it), each behind a start code. Throws when a length runs past its sample.
    public static func stream(_ configuration: Configuration, samples: [[UInt8]]) throws -> [UInt8] {
        var out: [UInt8] = []
        let sizes = samples.reduce(0) { $0 + $1.count + 16 }
        out.reserveCapacity(sizes + configuration.parameterSets.reduce(0) { $0 + $1.count + 4 } + 64)
        for set in configuration.parameterSets { out += startCode + set }
        var units = 0
        for sample in samples {
            var cursor = ByteCursor(sample, what: samples.count == 1 ? "the keyframe sample" : "a video sample")
            while !cursor.isAtEnd {
                var length = 0
                for _ in 0..<configuration.lengthSize { length = length << 8 | Int(try cursor.readUInt8()) }
                guard length <= cursor.remaining else {
                    throw MediaFormatError(.nalUnitPastSample(length: Int(length), remaining: cursor.remaining))
                }
                out += startCode
                out += try cursor.readBytes(length)
                units += 1
            }
        }
        guard units > 0 else { throw MediaFormatError(.emptyKeyframe) }
        return out
    }
}
