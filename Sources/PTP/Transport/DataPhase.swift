/// Receives the data phase of a transaction in chunks, so a 4 GiB file never sits in memory.
///
/// If `begin` or `write` throws, the transport still consumes the rest of the data phase and the response,
/// so the connection stays usable, and then rethrows the sink's error.
public protocol DataSink: AnyObject {
    /// Called once before any bytes with the length the device announced, when it announced one.
    func begin(expectedLength: UInt64?) throws
    func write(_ chunk: UnsafeRawBufferPointer) throws
}

/// Supplies an outgoing data phase in chunks.
public protocol DataSource: AnyObject {
    /// Total bytes this source will produce.
    var length: UInt64 { get }
    /// Fills `buffer` with the next bytes and returns how many; 0 only when all `length` bytes were produced.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
}

/// Collects a data phase in memory, refusing more than `limit` bytes.
public final class BufferSink: DataSink {
    public let limit: Int
    public private(set) var bytes: [UInt8] = []
    public private(set) var announcedLength: UInt64?

    public init(limit: Int = 64 << 20) { self.limit = limit }

    public func begin(expectedLength: UInt64?) throws {
        announcedLength = expectedLength
        if let expectedLength {
            guard expectedLength <= UInt64(limit) else {
                throw PTPError.dataTooLarge(limit: UInt64(limit), announced: expectedLength)
            }
            bytes.reserveCapacity(Int(expectedLength))
        }
    }

    public func write(_ chunk: UnsafeRawBufferPointer) throws {
        guard bytes.count + chunk.count <= limit else {
            throw PTPError.dataTooLarge(limit: UInt64(limit), announced: UInt64(bytes.count + chunk.count))
        }
        bytes.append(contentsOf: chunk)
    }
}

/// An outgoing data phase held in memory.
public final class BufferSource: DataSource {
    let bytes: [UInt8]
    var position = 0

    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    public var length: UInt64 { UInt64(bytes.count) }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = min(buffer.count, bytes.count - position)
        if count > 0 {
            bytes.withUnsafeBytes { source in
                buffer.baseAddress!.copyMemory(from: source.baseAddress! + position, byteCount: count)
            }
        }
        position += count
        return count
    }
}

extension DataSink {
    /// Takes a data phase of `total` bytes that `read` hands over piece by piece. More than `limit` bytes, or
    /// a failure of this sink, still reads the whole phase (so that the connection stays in step for the
    /// response), then throws `PTPError.dataTooLarge` or the sink's error.
    public func takePhase(of total: UInt64, limit: UInt64, read: ((UnsafeRawBufferPointer) -> Void) throws -> Void) throws {
        var failure: Error? = total > limit ? PTPError.dataTooLarge(limit: limit, announced: total) : nil
        if failure == nil {
            do { try begin(expectedLength: total) } catch { failure = error }
        }
        try read { chunk in
            guard failure == nil else { return }
            do { try write(chunk) } catch { failure = error }
        }
        if let failure { throw failure }
    }
}
