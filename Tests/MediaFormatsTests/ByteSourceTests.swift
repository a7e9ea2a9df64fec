import Foundation
import MediaFormats
import MediaManager
import POSIX
import TestSupport
import Testing

/// The byte sources: short reads only at the end, nothing past it, errors for bad requests and paths.
@Suite("Byte sources")
struct ByteSourceTests {
    @Test func fileSourceReadsTheSameBytesAsFoundation() throws {
        let name = "portrait_moovend.mp4"
        let source = try Fixtures.source(name)
        let whole = try Fixtures.bytes(name)
        #expect(source.length == UInt64(whole.count))
        #expect(try source.read(offset: 0, count: whole.count) == whole)
        #expect(try source.read(offset: 1000, count: 16) == Array(whole[1000..<1016]))
        #expect(try source.read(offset: UInt64(whole.count - 4), count: 100) == Array(whole.suffix(4)))
        #expect(try source.read(offset: UInt64(whole.count), count: 10) == [])
        #expect(try source.read(offset: UInt64.max, count: 10) == [])
        #expect(try source.read(offset: 0, count: 0) == [])
    }

    @Test func fileSourceErrorsNameThePath() {
        let missing = expectFormatError(.io) { try FileByteSource(path: "/nonexistent/DJI_0001.JPG") }
        guard case .system(let failure)? = missing?.problem else {
            Issue.record("\(String(reflecting: missing))")
            return
        }
        #expect(failure.call == .open && failure.path == "/nonexistent/DJI_0001.JPG")
        let folder = expectFormatError(.io) { try FileByteSource(path: Fixtures.directory.path) }
        #expect(folder?.problem == .notRegularFile(path: Fixtures.directory.path))
    }

    @Test func memorySourceBehavesLikeAFile() throws {
        let source = MemoryByteSource(Array(0..<100))
        #expect(source.length == 100)
        #expect(try source.read(offset: 98, count: 5) == [98, 99])
        #expect(try source.read(offset: 100, count: 5) == [])
        #expect(try source.read(offset: 5, count: Int.max) == Array(5..<100))
        expectFormatError(.malformed) { try source.read(offset: 0, count: -1) }
    }

    @Test func readFullyThrowsWhenTheFileIsShort() throws {
        let source = MemoryByteSource(Array(0..<10))
        #expect(try source.readFully(offset: 2, count: 3) == [2, 3, 4])
        let error = expectFormatError(.truncated) { try source.readFully(offset: 8, count: 3, what: "a box header") }
        #expect(error?.problem == .endsInside("a box header"))
        expectFormatError(.truncated) { try source.readFully(offset: UInt64.max, count: 2) }
    }

    /// A source that returns more than asked must not confuse `readFully`.
    @Test func readFullyTrimsAnOverlongAnswer() throws {
        struct Generous: ByteRangeSource {
            let length: UInt64 = 100
            func read(offset: UInt64, count: Int) throws -> [UInt8] { [UInt8](repeating: 7, count: count + 10) }
        }
        #expect(try Generous().readFully(offset: 0, count: 4) == [7, 7, 7, 7])
    }

    @Test func countingSourceCountsReadsAndBytes() throws {
        let counting = CountingByteSource(MemoryByteSource(Array(repeating: 1, count: 50)))
        _ = try counting.read(offset: 0, count: 10)
        _ = try counting.read(offset: 45, count: 10)
        #expect(counting.readCount == 2)
        #expect(counting.bytesRead == 15)
        #expect(counting.length == 50)
        counting.reset()
        #expect(counting.readCount == 0 && counting.bytesRead == 0)
    }

    @Test func eachProblemHasItsKind() {
        #expect(MediaFormatError(.endsInside("the 'moov' box"), offset: 1234).kind == .truncated)
        #expect(MediaFormatError(.notRegularFile(path: "x")).kind == .io)
        #expect(MediaFormatError(.editRate(track: "track 1", rate: 0x8000)).kind == .unsupported)
        #expect(MediaFormatError(.tooMany(.tracks, count: 9, limit: 8)).kind == .limitExceeded)
        #expect(MediaFormatError(.zeroWidth).kind == .malformed)
    }
}
