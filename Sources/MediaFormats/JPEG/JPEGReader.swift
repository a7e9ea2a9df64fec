/// Bounds that keep a hostile JPEG from costing unbounded reads.
public struct JPEGReadLimits: Sendable {
    /// The most header bytes walked looking for the frame header (EXIF and ICC segments live here).
    public var maxHeaderBytes: UInt64 = 4 << 20
    /// The most marker segments walked.
    public var maxSegments = 1024

    /// The default bounds, generous for any real camera file.
    public init() {}
}

/// Reads a JPEG's header through random access: the frame size (SOF) and the EXIF block (APP1) with its
/// thumbnail, walking marker segments and reading only the segments it needs, never the image data.
public struct JPEGReader: Sendable {
    /// The bounds applied while reading.
    public var limits: JPEGReadLimits

    /// A reader with the default bounds, or tighter ones.
    public init(limits: JPEGReadLimits = JPEGReadLimits()) {
        self.limits = limits
    }

    /// Reads the picture size and EXIF of the JPEG in `source`.
    public func read(from source: some ByteRangeSource) throws -> JPEGInfo {
        // EXIF with its thumbnail is usually within the first 16 KiB, so one read covers the whole header.
        var window = ReadAheadWindow(source, chunkSize: 16 << 10)
        guard source.length >= 4, try window.bytes(at: 0, count: 2, what: "the JPEG header") == [0xFF, 0xD8] else {
            throw MediaFormatError(.notJPEG, offset: 0)
        }
        var offset: UInt64 = 2
        var exif: ExifInfo?
        var segments = 0
        while true {
            segments += 1
            guard segments <= limits.maxSegments, offset <= limits.maxHeaderBytes else {
                throw MediaFormatError(.noFrameHeaderWithin(segments: segments - 1), offset: offset)
            }
            guard try window.bytes(at: offset, count: 1, what: "a JPEG marker") == [0xFF] else {
                throw MediaFormatError(.expectedMarker, offset: offset)
            }
            var marker: UInt8 = 0xFF
            while marker == 0xFF {  // Any number of 0xFF fill bytes may precede a marker.
                offset += 1
                guard offset <= limits.maxHeaderBytes else {
                    throw MediaFormatError(.fillRunTooLong, offset: offset)
                }
                marker = try window.bytes(at: offset, count: 1, what: "a JPEG marker")[0]
            }
            let markerOffset = offset - 1
            offset += 1
            switch marker {
            case 0x01, 0xD0...0xD7:
                continue  // Markers without a length.
            case 0xD8:
                throw MediaFormatError(.secondStartOfImage, offset: markerOffset)
            case 0xD9, 0xDA:
                throw MediaFormatError(.noFrameHeader, offset: markerOffset)
            default:
                break
            }
            var lengthField = ByteCursor(
                try window.bytes(at: offset, count: 2, what: "a JPEG segment length"), what: "a JPEG segment length")
            let length = Int(try lengthField.readUInt16())
            guard length >= 2 else {
                throw MediaFormatError(.segmentLength(Int(length)), offset: markerOffset)
            }
            let bodyOffset = offset + 2
            let bodyCount = length - 2
            offset = bodyOffset + UInt64(bodyCount)

            if marker == 0xE1, exif == nil {
                let body = try window.bytes(at: bodyOffset, count: bodyCount, what: "the APP1 (EXIF) segment")
                let signature: [UInt8] = Array("Exif".utf8) + [0, 0]
                if body.starts(with: signature) {
                    let parser = ExifParser(tiff: Array(body.dropFirst(6)), fileOffset: bodyOffset + 6)
                    exif = try parser.parse()
                }
            } else if Self.isFrameHeader(marker) {
                let body = try window.bytes(at: bodyOffset, count: bodyCount, what: "the JPEG frame header (SOF)")
                var frame = ByteCursor(body, fileOffset: bodyOffset, what: "the JPEG frame header (SOF)")
                _ = try frame.readUInt8()  // sample precision
                let height = Int(try frame.readUInt16())
                let width = Int(try frame.readUInt16())
                let components = Int(try frame.readUInt8())
                guard width > 0 else {
                    throw MediaFormatError(.zeroWidth, offset: bodyOffset)
                }
                return JPEGInfo(
                    width: width, height: height, componentCount: components, isProgressive: marker == 0xC2,
                    exif: exif)
            }
        }
    }

    /// The EXIF of the JPEG in `source` for its dates, from one read of its first `firstRead` bytes: IFD0
    /// and the Exif sub-IFD, where the dates are, come before the thumbnail in the files cameras write.
    /// When they are not all there, the header is read as `read(from:)` reads it. Nil: no EXIF.
    public func exifDates(from source: some ByteRangeSource, firstRead: Int = 4096) throws -> ExifInfo? {
        let head = try source.read(offset: 0, count: Int(min(UInt64(firstRead), source.length)))
        if let found = Self.exifDates(inHead: head) { return found }
        return try read(from: source).exif
    }

    /// The EXIF dates within `head`: `.some(nil)` when a frame header comes before any EXIF (the file has
    /// none), nil when `head` does not settle it.
    static func exifDates(inHead head: [UInt8]) -> ExifInfo?? {
        guard head.count >= 4, head[0] == 0xFF, head[1] == 0xD8 else { return nil }
        var i = 2
        while i + 4 <= head.count {
            guard head[i] == 0xFF else { return nil }
            let marker = head[i + 1]
            if marker == 0xFF {
                i += 1
                continue
            }
            if marker == 0x01 || (0xD0...0xD7).contains(marker) {
                i += 2
                continue
            }
            if marker == 0xD8 || marker == 0xD9 || marker == 0xDA { return nil }
            if isFrameHeader(marker) { return .some(nil) }
            let length = Int(head[i + 2]) << 8 | Int(head[i + 3])
            guard length >= 2 else { return nil }
            let body = i + 4
            if marker == 0xE1, body + 6 <= head.count, Array(head[body..<body + 6]) == Array("Exif".utf8) + [0, 0] {
                let end = min(body + length - 2, head.count)
                guard body + 6 < end else { return nil }
                var parser = ExifParser(tiff: Array(head[(body + 6)..<end]), fileOffset: UInt64(body + 6))
                parser.datesOnly = true
                guard let exif = try? parser.parse() else { return nil }
                return .some(exif)
            }
            i = body + length - 2
        }
        return nil
    }

    /// The embedded EXIF thumbnail of the JPEG in `source`, or nil when it has none.
    public func thumbnail(from source: some ByteRangeSource) throws -> [UInt8]? {
        try read(from: source).exif?.thumbnail
    }

    /// SOF0 to SOF15, except DHT (C4), JPG (C8) and DAC (CC), which share the range.
    private static func isFrameHeader(_ marker: UInt8) -> Bool {
        (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
    }
}
