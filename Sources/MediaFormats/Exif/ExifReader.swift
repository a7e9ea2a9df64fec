/// The EXIF tags of a still picture, read through partial reads from its first bytes only: a JPEG's APP1
/// segment (as `JPEGReader` finds it), or the TIFF structure that starts a TIFF or a TIFF-based raw file
/// (DNG, CR2, NEF, ARW, ORF, RW2, PEF, SRW), within its first `tiffHead` bytes: a directory or value placed
/// beyond them is left out, never fetched.
public struct ExifReader: Sendable {
    /// How much of the file is read (one request; a JPEG whose header is longer is read further).
    public var tiffHead = 128 << 10

    public init() {}

    /// The tags, empty when the picture has no EXIF; throws when its first bytes are neither a JPEG nor a
    /// TIFF structure, or a JPEG's header is malformed.
    public func tags(from source: some ByteRangeSource) throws -> [ExifTag] {
        let head = try source.read(offset: 0, count: Int(min(UInt64(tiffHead), source.length)))
        if head.starts(with: [0xFF, 0xD8]) {
            // The header is nearly always within the head; else it is read as JPEGReader reads it.
            if let info = try? JPEGReader().read(from: MemoryByteSource(head)) { return info.exif?.tags ?? [] }
            return try JPEGReader().read(from: source).exif?.tags ?? []
        }
        return ExifTagWalk(try TIFFBlock(head, fileOffset: 0, rawMagic: true)).tags()
    }
}
