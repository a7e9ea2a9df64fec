/// The header of one box at the top level of a file: its type, where it starts and how long it is. Read
/// through a read-ahead window, so walking a file's boxes costs one read per box that the window misses.
struct TopLevelBox {
    let type: FourCC
    let offset: UInt64
    let size: UInt64
    let headerSize: UInt64

    /// Where the box ends (it may lie past the end of a truncated file; `fits` says).
    var end: UInt64 { offset &+ size }

    /// Reads the header at `offset`. Throws for a header that is cut off, not text, or smaller than itself;
    /// a size of 0 runs to the end of the file.
    static func read<Source>(at offset: UInt64, from window: inout ReadAheadWindow<Source>) throws -> TopLevelBox {
        let length = window.source.length
        var header = ByteCursor(
            try window.bytes(at: offset, count: 8, what: "a box header"), fileOffset: offset, what: "a box header")
        let size32 = try header.readUInt32()
        let type = FourCC(rawValue: try header.readUInt32())
        guard type.isPrintable else {
            throw MediaFormatError(.boxTypeNotText("\(type)"), offset: offset)
        }
        var headerSize: UInt64 = 8
        let size: UInt64
        switch size32 {
        case 0:
            size = length - offset  // The last box runs to the end of the file.
        case 1:
            var large = ByteCursor(
                try window.bytes(at: offset + 8, count: 8, what: "the 64-bit size of '\(type)'"),
                fileOffset: offset + 8, what: "a box header")
            size = try large.readUInt64()
            headerSize = 16
        default:
            size = UInt64(size32)
        }
        guard size >= headerSize else {
            throw MediaFormatError(.smallerThanHeader(box: "\(type)", size: size), offset: offset)
        }
        return TopLevelBox(type: type, offset: offset, size: size, headerSize: headerSize)
    }

    /// True when the whole box lies inside a file of `length` bytes.
    func fits(in length: UInt64) -> Bool {
        let (end, overflow) = offset.addingReportingOverflow(size)
        return !overflow && end <= length
    }

    /// Reads the whole box into memory and returns it with a cursor over its payload.
    func load<Source>(from window: inout ReadAheadWindow<Source>) throws -> Box {
        let bytes = try window.bytes(at: offset, count: Int(size), what: "the '\(type)' box")
        return Box(
            type: type,
            payload: ByteCursor(bytes, range: Int(headerSize)..<bytes.count, fileOffset: offset, what: "the '\(type)' box"),
            fileOffset: offset)
    }
}
