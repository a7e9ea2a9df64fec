/// Turns one track box (`trak`) into a `TrackInfo`: header and matrix (`tkhd`), edit list (`edts`), media
/// header (`mdhd`), handler (`hdlr`), sample description (`stsd`) and sample tables (`stbl`).
struct TrackBoxParser {
    let limits: MovieReadLimits
    let sourceLength: UInt64
    let movieTimescale: UInt32

    func parse(_ trak: Box, depth: Int, budget: inout BoxBudget) throws -> TrackInfo {
        let trakChildren = try trak.children(depth: depth, budget: &budget)
        let header = try parseTrackHeader(trakChildren.require("tkhd", in: "a track"))
        let name = "track \(header.id)"
        let mdia = try trakChildren.require("mdia", in: name)
        let mdiaChildren = try mdia.children(depth: depth + 1, budget: &budget)
        let media = try parseMediaHeader(mdiaChildren.require("mdhd", in: "the media of \(name)"))
        let handler = try parseHandler(mdiaChildren.require("hdlr", in: "the media of \(name)"))
        let minf = try mdiaChildren.require("minf", in: "the media of \(name)")
        let stbl = try minf.children(depth: depth + 2, budget: &budget).require("stbl", in: "the media of \(name)")
        let stblChildren = try stbl.children(depth: depth + 3, budget: &budget)
        let description = try parseSampleDescription(
            stblChildren.require("stsd", in: "the sample table of \(name)"), handler: handler, depth: depth + 5,
            budget: &budget)

        var editList: [EditListEntry]?
        if let edts = trakChildren.first("edts"),
            let elst = try edts.children(depth: depth + 1, budget: &budget).first("elst")
        {
            editList = try EditListEntry.parse(elst)
        }
        let presentationShift = EditListEntry.firstShift(
            editList ?? [], movieTimescale: movieTimescale, mediaTimescale: media.timescale)

        let tables = try RawSampleTables(stblChildren, trackName: name, maxSamples: limits.maxSamplesPerTrack)
        let sampleTable = try SampleTableBuilder(
            tables: tables, timescale: media.timescale, presentationShift: presentationShift,
            sourceLength: sourceLength, trackName: name
        ).build()

        return TrackInfo(
            id: header.id, kind: TrackKind(handler: handler), handler: handler, codec: description.codec,
            codedWidth: description.codedWidth, codedHeight: description.codedHeight,
            width: header.width, height: header.height, rotation: header.rotation,
            sampleRate: description.sampleRate, channelCount: description.channelCount,
            codecConfiguration: description.codecConfiguration, timescale: media.timescale, duration: media.duration,
            editList: editList, movieTimescale: movieTimescale, sampleTable: sampleTable)
    }

    // MARK: - tkhd

    private struct TrackHeader {
        var id: UInt32
        var width: Double
        var height: Double
        var rotation: Int
    }

    private func parseTrackHeader(_ box: Box) throws -> TrackHeader {
        var (version, _, cursor) = try box.fullBoxPayload()
        let id: UInt32
        switch version {
        case 0:
            try cursor.skip(8)  // creation and modification times
            id = try cursor.readUInt32()
            try cursor.skip(4 + 4)  // reserved, duration
        case 1:
            try cursor.skip(16)
            id = try cursor.readUInt32()
            try cursor.skip(4 + 8)
        default:
            throw MediaFormatError(.unknownVersion(box: "tkhd", version: version), offset: box.fileOffset)
        }
        try cursor.skip(8 + 2 + 2 + 2 + 2)  // reserved, layer, alternate group, volume, reserved
        var matrix: [Int32] = []
        for _ in 0..<9 { matrix.append(try cursor.readInt32()) }
        let width = Double(try cursor.readUInt32()) / 65536
        let height = Double(try cursor.readUInt32()) / 65536
        return TrackHeader(id: id, width: width, height: height, rotation: Self.rotation(fromMatrix: matrix))
    }

    /// The clockwise display rotation that a `tkhd` matrix {a b u, c d v, x y w} applies, snapped to a
    /// multiple of 90 degrees. 90 degrees is stored as a = 0, b = 1, c = -1, d = 0.
    static func rotation(fromMatrix matrix: [Int32]) -> Int {
        let a = Int64(matrix[0])
        let b = Int64(matrix[1])
        if a == 0 && b == 0 { return 0 }
        if abs(a) >= abs(b) { return a > 0 ? 0 : 180 }
        return b > 0 ? 90 : 270
    }

    // MARK: - mdhd, hdlr

    private struct MediaHeader {
        var timescale: UInt32
        var duration: UInt64
    }

    private func parseMediaHeader(_ box: Box) throws -> MediaHeader {
        var (version, _, cursor) = try box.fullBoxPayload()
        let timescale: UInt32
        let duration: UInt64
        switch version {
        case 0:
            try cursor.skip(8)
            timescale = try cursor.readUInt32()
            duration = UInt64(try cursor.readUInt32())
        case 1:
            try cursor.skip(16)
            timescale = try cursor.readUInt32()
            duration = try cursor.readUInt64()
        default:
            throw MediaFormatError(.unknownVersion(box: "mdhd", version: version), offset: box.fileOffset)
        }
        guard timescale > 0 else {
            throw MediaFormatError(.zeroTimescale(box: "mdhd"), offset: box.fileOffset)
        }
        return MediaHeader(timescale: timescale, duration: duration)
    }

    private func parseHandler(_ box: Box) throws -> FourCC {
        var (_, _, cursor) = try box.fullBoxPayload()
        _ = try cursor.readUInt32()  // pre_defined (QuickTime: component type "mhlr")
        return FourCC(rawValue: try cursor.readUInt32())
    }

    // MARK: - stsd

    private struct SampleDescription {
        var codec: FourCC?
        var codedWidth: Int?
        var codedHeight: Int?
        var sampleRate: Double?
        var channelCount: Int?
        var codecConfiguration: [UInt8]?
    }

    /// The first sample entry's format, plus picture size (video) or rate and channels (audio).
    private func parseSampleDescription(
        _ box: Box, handler: FourCC, depth: Int, budget: inout BoxBudget
    ) throws -> SampleDescription {
        var (_, _, cursor) = try box.fullBoxPayload()
        let entryCount = try cursor.readUInt32()
        try cursor.requireEntries(UInt64(entryCount), of: 8, "sample descriptions")
        guard entryCount > 0 else { return SampleDescription() }
        let entryStart = cursor.currentFileOffset
        let entrySize = try cursor.readUInt32()
        let format = FourCC(rawValue: try cursor.readUInt32())
        guard entrySize >= 8, UInt64(entrySize - 8) <= UInt64(cursor.remaining) else {
            throw MediaFormatError(
                .childTooLarge(box: "\(format)", size: UInt64(entrySize), parent: "stsd", room: UInt64(cursor.remaining + 8)),
                offset: entryStart)
        }
        var entry = try cursor.subCursor(Int(entrySize - 8), what: "the '\(format)' sample description")
        var result = SampleDescription(codec: format)
        try entry.skip(6 + 2)  // reserved, data reference index
        switch handler {
        case "vide":
            try entry.skip(2 + 2 + 12)  // pre_defined, reserved, pre_defined
            result.codedWidth = Int(try entry.readUInt16())
            result.codedHeight = Int(try entry.readUInt16())
            result.codecConfiguration = Self.codecConfiguration(
                afterVisualFields: entry, format: format, entryStart: entryStart, depth: depth, budget: &budget)
        case "soun":
            let version = try entry.readUInt16()  // QuickTime sound description version; 0 in ISO files
            try entry.skip(2 + 4)  // revision, vendor
            let channels = try entry.readUInt16()
            try entry.skip(2 + 2 + 2)  // sample size, compression id, packet size
            let rate = Double(try entry.readUInt32()) / 65536
            if version == 2 {
                // QuickTime v2 keeps placeholders above and the real values after them.
                try entry.skip(4)  // size of the fixed part
                result.sampleRate = Double(bitPattern: try entry.readUInt64())
                result.channelCount = Int(try entry.readUInt32())
            } else {
                result.sampleRate = rate
                result.channelCount = Int(channels)
                if version == 0, format == "mp4a" {
                    // ISO files always write 2 channels here; the decoder config knows better.
                    let children = try Box(type: format, payload: entry, fileOffset: entryStart)
                        .children(depth: depth, budget: &budget)
                    if let esds = children.first("esds"),
                        let count = try AudioSpecificConfig.channelCount(esds: esds.fullBoxPayload().cursor)
                    {
                        result.channelCount = count
                    }
                }
            }
        default:
            break
        }
        return result
    }

    /// The payload of the `avcC` or `hvcC` box that follows a visual sample entry's fixed fields (`entry` is
    /// at the resolution fields). Lenient: a missing, oversized or malformed box gives nil, not an error,
    /// since nothing but a decoder needs it.
    private static func codecConfiguration(
        afterVisualFields entry: ByteCursor, format: FourCC, entryStart: UInt64, depth: Int, budget: inout BoxBudget
    ) -> [UInt8]? {
        var fields = entry
        // resolutions, reserved, frame count, compressor name, depth, pre_defined
        guard (try? fields.skip(4 + 4 + 4 + 2 + 32 + 2 + 2)) != nil,
            let children = try? Box(type: format, payload: fields, fileOffset: entryStart)
                .children(depth: depth, budget: &budget),
            let box = children.first("avcC") ?? children.first("hvcC"), box.payload.remaining <= maxCodecConfiguration
        else { return nil }
        var payload = box.payload
        return try? payload.readBytes(payload.remaining)
    }

    /// Parameter sets are a few dozen bytes; more is not a configuration worth keeping.
    static let maxCodecConfiguration = 64 << 10
}
