import Foundation
import PTP
import TestSupport
import Testing

@testable import MediaManager

/// Chunk sizes from the measured rate, on a clock moved by hand: a request takes about the target time on
/// any link, within the bounds, and a download sized so still arrives whole.
struct ChunkSizingTests {
    @Test func aRequestTakesAboutTheTargetTimeOnSlowAndFastLinks() {
        let clock = LockedBox(0.0)
        let sizing = ChunkSizing(target: 0.2, minimum: 64 << 10, maximum: 8 << 20, now: { clock.value })
        #expect(sizing.nextSize == 64 << 10)
        // A Wi-Fi-like link: 2 MB/s. The size settles at 0.2 s worth (400 kB), growing at most 4x a step.
        for _ in 0..<8 {
            let bytes = sizing.measure {
                clock.mutate { $0 += Double(sizing.nextSize) / 2_000_000 }
                return sizing.nextSize
            }
            #expect(bytes > 0)
        }
        #expect(abs(Double(sizing.nextSize) - 400_000) < 1000)
        #expect(abs((sizing.measuredRate ?? 0) - 2_000_000) < 1)
        // The link speeds up to 1 GB/s: the size grows, but never past the maximum.
        for _ in 0..<8 { sizing.record(bytes: sizing.nextSize, seconds: Double(sizing.nextSize) / 1e9) }
        #expect(sizing.nextSize == 8 << 20)
        // And slows right down: never under the minimum.
        for _ in 0..<8 { sizing.record(bytes: 1000, seconds: 1) }
        #expect(sizing.nextSize == 64 << 10)
    }

    @Test func aRequestThatBroughtNothingTeachesNothing() {
        let sizing = ChunkSizing(minimum: 1000, maximum: 1 << 20)
        sizing.record(bytes: 0, seconds: 5)
        #expect(sizing.measuredRate == nil)
        #expect(sizing.nextSize == 1000)
    }

    @Test func theMaximumNeverPassesWhatOneRequestCanAskFor() {
        let sizing = ChunkSizing(minimum: 1, maximum: Int.max)
        #expect(sizing.maximum == Int(UInt32.max))
    }

    /// A download whose requests are sized by the rate asks for sizes the sizing gave, and arrives whole.
    @Test func aSizedDownloadArrivesWholeInRequestsOfTheGivenSizes() throws {
        let folder = try TemporaryFolder()
        let content = (0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let clock = LockedBox(0.0)
        let sizing = ChunkSizing(target: 0.1, minimum: 100_000, maximum: 1_000_000, now: { clock.value })
        var options = DownloadJob.Options()
        options.chunkSizing = sizing
        let job = DownloadJob(
            remoteName: "A.MP4", size: UInt64(content.count), destinationFolder: folder.path, localName: "A.MP4",
            options: options)
        var asked: [Int] = []
        _ = try job.run(read: { offset, count, sink in
            asked.append(count)
            clock.mutate { $0 += Double(count) / 4_000_000 }  // a 4 MB/s link: 400 kB per 0.1 s
            let slice = Array(content[Int(offset)..<Int(offset) + count])
            try sink.begin(expectedLength: UInt64(count))
            try slice.withUnsafeBytes { try sink.write($0) }
            return count
        })
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder.path + "/A.MP4")) == Data(content))
        #expect(asked.first == 100_000)
        #expect(asked.dropFirst(3).dropLast().allSatisfy { abs($0 - 400_000) < 1000 })
    }
}
