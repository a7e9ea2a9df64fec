/// Bytes already in memory, served as a `ByteRangeSource` (tests, small downloads, data built on the fly).
public struct MemoryByteSource: ByteRangeSource, Sendable {
    /// The whole file.
    public let bytes: [UInt8]

    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    public var length: UInt64 { UInt64(bytes.count) }

    public func read(offset: UInt64, count: Int) throws -> [UInt8] {
        let available = try clampedReadCount(offset: offset, count: count, length: length)
        guard available > 0 else { return [] }
        let start = Int(offset)
        return Array(bytes[start..<start + available])
    }
}
