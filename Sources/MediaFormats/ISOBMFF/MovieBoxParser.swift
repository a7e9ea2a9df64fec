import Foundation

/// Turns the bytes of one movie box (`moov`) into a `MovieInfo`: the movie header and each track.
struct MovieBoxParser {
    let limits: MovieReadLimits
    /// The file's length, against which sample sizes and offsets are sanity-checked.
    let sourceLength: UInt64
    private var budget: BoxBudget

    init(limits: MovieReadLimits, sourceLength: UInt64) {
        self.limits = limits
        self.sourceLength = sourceLength
        self.budget = BoxBudget(maxBoxes: limits.maxBoxes, maxDepth: limits.maxDepth)
    }

    mutating func parse(
        _ moov: Box, size: UInt64, brands: (major: FourCC, compatible: [FourCC])?, isFastStart: Bool
    ) throws -> (MovieInfo, MovieExtends?) {
        let children = try moov.children(depth: 1, budget: &budget)
        let header = try parseMovieHeader(children.require("mvhd", in: "the movie box"))
        let trackBoxes = children.filter { $0.type == "trak" }
        guard trackBoxes.count <= limits.maxTracks else {
            throw MediaFormatError(
                .tooMany(.tracks, count: UInt64(trackBoxes.count), limit: limits.maxTracks), offset: moov.fileOffset)
        }
        var tracks: [TrackInfo] = []
        for box in trackBoxes {
            let trackParser = TrackBoxParser(
                limits: limits, sourceLength: sourceLength, movieTimescale: header.timescale)
            tracks.append(try trackParser.parse(box, depth: 2, budget: &budget))
        }

        let extends = try children.first("mvex").map { try MovieExtends($0, depth: 2, budget: &budget) }
        let declared = header.duration == UInt64.max || header.duration == UInt64(UInt32.max) ? 0 : header.duration
        let movie = MovieInfo(
            majorBrand: brands?.major,
            compatibleBrands: brands?.compatible ?? [],
            timescale: header.timescale,
            declaredDuration: declared,
            creationDate: header.creationDate,
            tracks: tracks,
            movieBoxOffset: moov.fileOffset,
            movieBoxSize: size,
            isFastStart: isFastStart)
        return (movie, extends)
    }

    private struct MovieHeader {
        var timescale: UInt32
        var duration: UInt64
        var creationDate: Date?
    }

    /// `mvhd`: creation time, timescale and duration, in 32-bit (version 0) or 64-bit (version 1) fields.
    private func parseMovieHeader(_ box: Box) throws -> MovieHeader {
        var (version, _, cursor) = try box.fullBoxPayload()
        let creation: UInt64
        let timescale: UInt32
        let duration: UInt64
        switch version {
        case 0:
            creation = UInt64(try cursor.readUInt32())
            _ = try cursor.readUInt32()  // modification time
            timescale = try cursor.readUInt32()
            duration = UInt64(try cursor.readUInt32())
        case 1:
            creation = try cursor.readUInt64()
            _ = try cursor.readUInt64()
            timescale = try cursor.readUInt32()
            duration = try cursor.readUInt64()
        default:
            throw MediaFormatError(.unknownVersion(box: "mvhd", version: version), offset: box.fileOffset)
        }
        guard timescale > 0 else {
            throw MediaFormatError(.zeroTimescale(box: "mvhd"), offset: box.fileOffset)
        }
        return MovieHeader(timescale: timescale, duration: duration, creationDate: Self.date(since1904: creation))
    }

    /// ISO-BMFF times count seconds from 1904-01-01 UTC; 0 means "not set".
    static func date(since1904 seconds: UInt64) -> Date? {
        // Beyond year ~3000 the field is garbage, not a date.
        guard seconds > 0, seconds < 35_000_000_000 else { return nil }
        let from1904To1970: Double = 2_082_844_800
        return Date(timeIntervalSince1970: Double(seconds) - from1904To1970)
    }
}
