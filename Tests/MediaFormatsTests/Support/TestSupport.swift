import MediaFormats
import Testing

/// A file of any length (gigabytes) that holds given bytes at given offsets and zeros elsewhere, without
/// allocating the zeros: for testing reads of huge files.
struct SparseByteSource: ByteRangeSource {
    let length: UInt64
    let pieces: [(offset: UInt64, bytes: [UInt8])]

    func read(offset: UInt64, count: Int) throws -> [UInt8] {
        guard offset < length else { return [] }
        let end = min(length, offset + UInt64(count))
        var result = [UInt8](repeating: 0, count: Int(end - offset))
        for piece in pieces {
            let start = max(piece.offset, offset)
            let stop = min(piece.offset + UInt64(piece.bytes.count), end)
            guard start < stop else { continue }
            for position in start..<stop {
                result[Int(position - offset)] = piece.bytes[Int(position - piece.offset)]
            }
        }
        return result
    }
}

/// Runs `body` on hostile input: it may succeed or throw `MediaFormatError`; any other error is a test
/// failure, and a crash would end the run. Returns the error, if any.
@discardableResult
func expectTotal<T>(
    _ label: @autoclosure () -> String, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> T
) -> MediaFormatError? {
    do {
        _ = try body()
        return nil
    } catch let error as MediaFormatError {
        return error
    } catch {
        Issue.record("\(label()): unexpected error type \(type(of: error)): \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// Runs `body` and returns the `MediaFormatError` it throws; records an issue if it succeeds or throws
/// something else.
@discardableResult
func expectFormatError<T>(
    _ kind: MediaFormatError.Kind? = nil, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> T
) -> MediaFormatError? {
    do {
        let value = try body()
        Issue.record("expected a MediaFormatError, got \(value)", sourceLocation: sourceLocation)
    } catch let error as MediaFormatError {
        if let kind {
            #expect(error.kind == kind, "\(error)", sourceLocation: sourceLocation)
        }
        return error
    } catch {
        Issue.record("unexpected error type \(type(of: error)): \(error)", sourceLocation: sourceLocation)
    }
    return nil
}
