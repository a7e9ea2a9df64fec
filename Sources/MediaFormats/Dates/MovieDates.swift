import Foundation

/// The dates a movie file (MP4, MOV, LRF) carries: QuickTime's `com.apple.quicktime.creationdate` (with a
/// zone) and the movie header's creation time. Read through random access without the sample tables: the
/// top-level box headers, then the movie box whole when it is small, else only its `mvhd`, `meta` and
/// `udta` children, so a long clip over a slow link costs a few small reads.
public struct MovieDates: Sendable, Equatable {
    /// `com.apple.quicktime.creationdate`, as written (`2024-05-01T10:20:30+0200`).
    public var quickTimeCreationDate: String?
    /// `mvhd` creation_time (UTC by the specification); nil when 0.
    public var movieHeaderCreation: Date?
    /// The movie's declared duration in seconds (to tell a clip's start from the camera's date, often its end).
    public var duration: Double?

    public init(quickTimeCreationDate: String? = nil, movieHeaderCreation: Date? = nil, duration: Double? = nil) {
        self.quickTimeCreationDate = quickTimeCreationDate
        self.movieHeaderCreation = movieHeaderCreation
        self.duration = duration
    }

    /// A movie box up to this size is read whole (one request); a larger one child by child.
    static let wholeMovieBox: UInt64 = 256 << 10
    static let maxTopLevelBoxes = 4096
    /// The largest `meta`/`udta` box read.
    static let maxMetadataBox: UInt64 = 1 << 20

    /// Reads the dates of the movie in `source`.
    public static func read(from source: some ByteRangeSource) throws -> MovieDates {
        let length = source.length
        var window = ReadAheadWindow(source, chunkSize: 4096)
        var offset: UInt64 = 0
        var boxes = 0
        while length - offset >= 8 {
            boxes += 1
            guard boxes <= maxTopLevelBoxes else {
                throw MediaFormatError(.noMovieBoxWithin(boxes: maxTopLevelBoxes), offset: offset)
            }
            let box = try TopLevelBox.read(at: offset, from: &window)
            guard box.fits(in: length) else {
                throw MediaFormatError(.boxPastEndBeforeMovie(box: "\(box.type)", size: nil, fileLength: nil), offset: offset)
            }
            if box.type == "moov" { return try readMovieBox(box, window: &window) }
            offset = box.end
        }
        throw MediaFormatError(.noMovieBox(fileLength: nil))
    }

    private static func readMovieBox<S>(_ moov: TopLevelBox, window: inout ReadAheadWindow<S>) throws -> MovieDates {
        var children: [Box] = []
        if moov.size <= wholeMovieBox {
            var budget = BoxBudget(maxBoxes: 100_000, maxDepth: 16)
            children = try moov.load(from: &window).children(depth: 1, budget: &budget)
        } else {
            // Child by child: headers only, and the few small boxes that hold dates.
            var offset = moov.offset + moov.headerSize
            var count = 0
            while moov.end - offset >= 8 {
                count += 1
                guard count <= 4096 else { break }
                let child = try TopLevelBox.read(at: offset, from: &window)
                guard child.end <= moov.end else {
                    throw MediaFormatError(.boxPastParent(box: "\(child.type)", parent: "moov"), offset: offset)
                }
                if ["mvhd", "meta", "udta"].contains(child.type), child.size <= maxMetadataBox {
                    children.append(try child.load(from: &window))
                }
                offset = child.end
            }
        }
        var dates = MovieDates()
        if let mvhd = children.first("mvhd") { (dates.movieHeaderCreation, dates.duration) = try movieHeader(mvhd) }
        var budget = BoxBudget(maxBoxes: 10_000, maxDepth: 8)
        for meta in children.filter({ $0.type == "meta" }) {
            dates.quickTimeCreationDate = dates.quickTimeCreationDate ?? (try? creationDate(inMeta: meta, budget: &budget)) ?? nil
        }
        if dates.quickTimeCreationDate == nil, let udta = children.first("udta"),
            let inner = try? udta.children(depth: 2, budget: &budget)
        {
            for meta in inner.filter({ $0.type == "meta" }) {
                dates.quickTimeCreationDate = dates.quickTimeCreationDate ?? (try? creationDate(inMeta: meta, budget: &budget)) ?? nil
            }
        }
        return dates
    }

    /// `mvhd`'s creation time (seconds since 1904 UTC; 0 is unset) and duration.
    static func movieHeader(_ box: Box) throws -> (Date?, Double?) {
        var (version, _, cursor) = try box.fullBoxPayload()
        let creation: UInt64
        let timescale: UInt32
        let duration: UInt64
        switch version {
        case 0:
            creation = UInt64(try cursor.readUInt32())
            _ = try cursor.readUInt32()
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
        let date: Date? = creation > 0 && creation < 35_000_000_000 ? Date(timeIntervalSince1970: Double(creation) - 2_082_844_800) : nil
        let seconds = timescale > 0 && duration != UInt64(UInt32.max) && duration != UInt64.max ? Double(duration) / Double(timescale) : nil
        return (date, seconds)
    }

    /// The `com.apple.quicktime.creationdate` of a `meta` box: its `keys` name the entries of its `ilst`.
    /// QuickTime's `meta` is a plain container, ISO's a full box (four bytes of version and flags first).
    static func creationDate(inMeta meta: Box, budget: inout BoxBudget) throws -> String? {
        var payload = meta.payload
        var peek = payload
        if peek.remaining >= 8 {
            _ = try peek.readUInt32()
            let type = FourCC(rawValue: try peek.readUInt32())
            if !["hdlr", "keys", "ilst", "free"].contains(type) { try payload.skip(4) }
        }
        let inner = Box(type: "meta", payload: payload, fileOffset: meta.fileOffset)
        let children = try inner.children(depth: 3, budget: &budget)
        guard let keys = children.first("keys"), let ilst = children.first("ilst") else { return nil }
        var (_, _, cursor) = try keys.fullBoxPayload()
        let count = try cursor.readUInt32()
        var wanted: UInt32?
        var index: UInt32 = 0
        while index < count {
            index += 1
            let size = try cursor.readUInt32()
            _ = try cursor.readUInt32()  // namespace, 'mdta'
            guard size >= 8 else { return nil }
            let name = String(decoding: try cursor.readBytes(Int(size) - 8), as: UTF8.self)
            if name == "com.apple.quicktime.creationdate" {
                wanted = index
                break
            }
        }
        guard let wanted else { return nil }
        for item in try ilst.children(depth: 4, budget: &budget) where item.type.rawValue == wanted {
            for data in try item.children(depth: 5, budget: &budget) where data.type == "data" {
                var value = data.payload
                let typeIndicator = try value.readUInt32()
                _ = try value.readUInt32()  // locale
                guard typeIndicator & 0x00FF_FFFF == 1 else { continue }  // UTF-8
                let text = String(decoding: try value.readBytes(value.remaining), as: UTF8.self)
                    .trimmingCharacters(in: .whitespacesAndNewlines.union(CharacterSet(charactersIn: "\0")))
                return text.isEmpty ? nil : text
            }
        }
        return nil
    }
}
