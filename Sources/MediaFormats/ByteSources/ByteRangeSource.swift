/// Random access to the bytes of one file, wherever they live: a local file, memory, or a camera's card read
/// piece by piece. Readers in this module touch a file only through this protocol.
public protocol ByteRangeSource {
    /// The file's size in bytes.
    var length: UInt64 { get }

    /// Reads up to `count` bytes starting at `offset`; fewer only when the file ends first (none past the end).
    func read(offset: UInt64, count: Int) throws -> [UInt8]
}

extension ByteRangeSource {
    /// Reads exactly `count` bytes at `offset`, or throws a `.truncated` error naming `what` was being read.
    public func readFully(offset: UInt64, count: Int, what: String = "the data") throws -> [UInt8] {
        guard count >= 0 else { throw MediaFormatError(.negativeRead(structure: what), offset: offset) }
        guard count > 0 else { return [] }
        let (end, overflow) = offset.addingReportingOverflow(UInt64(count))
        guard !overflow, end <= length else { throw MediaFormatError.truncated(what, offset: offset) }
        var bytes = try read(offset: offset, count: count)
        // A source is not trusted to honour the count either.
        if bytes.count > count { bytes.removeLast(bytes.count - count) }
        guard bytes.count == count else { throw MediaFormatError.truncated(what, offset: offset) }
        return bytes
    }
}

/// How many bytes a read of `count` at `offset` can really return from a source of `length` bytes.
/// Sources use it to size buffers by the data that exists, never by the caller's request alone.
package func clampedReadCount(offset: UInt64, count: Int, length: UInt64) throws -> Int {
    guard count >= 0 else { throw MediaFormatError(.negativeRead(structure: nil), offset: offset) }
    guard offset < length else { return 0 }
    return Int(min(UInt64(count), length - offset))
}
