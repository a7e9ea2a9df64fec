import Foundation
import Imaging
import MediaFormats
import MediaManager
import POSIX
import TestSupport
import Testing
import Thumbnails

/// Issue 42: the picture of the frame a seek lands on is that frame, not its keyframe. `MovieFrame` reads the
/// samples from the keyframe before it (by range, never the whole file) and ffmpeg decodes them as one raw
/// stream; the picture is compared with ffmpeg's own frame N of the file (its demuxer, edit list and decoder):
/// both made JPEGs the same way, the pictures are the same (and differ from the frames beside it).
@Suite(
    "Exact frames as pictures, against ffmpeg's frame N",
    .enabled(if: ExternalTool.ffmpeg != nil && ExternalTool.ffprobe != nil, "needs ffmpeg and ffprobe"), .tags(.process), .notInFastRun)
struct ExactFramePictureTests {
    /// A file whose reads are counted.
    final class CountingSource: ByteRangeSource, Sendable {
        let file: FileByteSource
        private let reads = Locked((count: 0, bytes: 0))
        init(_ path: String) throws { file = try FileByteSource(path: path) }
        var length: UInt64 { file.length }
        func read(offset: UInt64, count: Int) throws -> [UInt8] {
            let bytes = try file.read(offset: offset, count: count)
            reads.withLock { $0 = ($0.count + 1, $0.bytes + bytes.count) }
            return bytes
        }
        var counted: (count: Int, bytes: Int) { reads.withLock { $0 } }
    }

    /// ffmpeg's frame `number` of the file at `path` made a JPEG as ours is (at most 320 wide), decoded.
    static func reference(_ path: String, frame number: Int) throws -> [UInt8] {
        let ffmpeg = try #require(ExternalTool.ffmpeg)
        let jpeg = [UInt8](try ffmpeg.run([
            "-v", "error", "-i", path, "-vf", "select=eq(n\\,\(number)),scale=w='min(320,iw)':h=-2", "-frames:v", "1",
            "-pix_fmt", "yuvj420p", "-q:v", "3", "-f", "mjpeg", "pipe:1",
        ]))
        return try JPEGDecoder.decode(jpeg, limits: DecodeLimits(maxBytes: 16 << 20)).image.pixels
    }

    /// The mean difference of two pictures' bytes (0-255).
    static func difference(_ a: [UInt8], _ b: [UInt8]) -> Double {
        guard a.count == b.count, !a.isEmpty else { return .infinity }
        return Double(zip(a, b).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(a.count)
    }

    /// Decodes each of `frames` of the clip at `path` and compares it with ffmpeg's; returns the worst
    /// difference from the right frame and the smallest from a neighbour.
    func check(_ path: String, frames: [Int]) throws -> (worst: Double, nearestNeighbour: Double) {
        let decoder = try #require(KeyframeDecoder.find(environment: ProcessInfo.processInfo.environment))
        let source = try CountingSource(path)
        let track = try #require(try MovieReader().read(from: source).videoTrack)
        let count = try track.timeline.get().frameCount
        var worst = 0.0
        var nearest = Double.infinity
        for number in frames {
            let before = source.counted
            let jpeg = try MovieFrame.jpeg(
                frame: number, of: track, from: source, name: "clip", decoder: decoder, cancellation: Cancellation())
            let read = (source.counted.count - before.count, source.counted.bytes - before.bytes)
            let range = try #require(FrameDecodeRange(frame: number, of: try track.timeline.get(), table: track.sampleTable))
            #expect(read.0 <= 4, "frame \(number): \(read.0) reads")
            #expect(UInt64(read.1) < range.byteCount(in: track.sampleTable) + 4 * 65_536, "frame \(number): read \(read.1) bytes")
            let ours = try JPEGDecoder.decode(jpeg, limits: DecodeLimits(maxBytes: 16 << 20)).image.pixels
            let same = Self.difference(ours, try Self.reference(path, frame: number))
            let neighbours = try [number - 1, number + 1].filter { (0..<count).contains($0) }.map {
                Self.difference(ours, try Self.reference(path, frame: $0))
            }
            #expect(same < 0.5, "frame \(number) differs from ffmpeg's by \(same) on average")
            #expect(neighbours.allSatisfy { $0 > same }, "frame \(number): \(same) from ffmpeg's, \(neighbours) from its neighbours'")
            worst = max(worst, same)
            nearest = min(nearest, neighbours.min() ?? .infinity)
        }
        return (worst, nearest)
    }

    @Test func framesOfTheSparseKeyframeClip() throws {
        let clip = try SparseKeyframeClip()
        let (worst, nearest) = try check(clip.path, frames: [0, 1, 249, 250, 251, 499, 500, 501, 637, 1499])
        let size = try #require(try FileManager.default.attributesOfItem(atPath: clip.path)[.size] as? Int)
        print("exact frame pictures, 60 s clip (\(size) B): worst \(worst) from ffmpeg's frame, nearest neighbour \(nearest)")
    }

    @Test(arguments: OtherClipKind.allCases)
    func framesOfOtherCodecsAndContainers(kind: OtherClipKind) throws {
        let folder = try TemporaryFolder()
        let path = folder.path + "/" + kind.fileName
        try kind.make(at: path)
        if kind == .movRotated {
            let track = try #require(try MovieReader().read(from: FileByteSource(path: path)).videoTrack)
            try #require(track.rotation != 0, "the clip is not rotated")
        }
        let count = try ProbedFrames(path: path).frameTimes.count
        try #require(count > 60)
        let frames = Array(Set(stride(from: 0, to: count, by: 5).map { $0 } + [1, 29, 31, count - 1])).sorted()
        let (worst, nearest) = try check(path, frames: frames)
        print("exact frame pictures, \(kind): \(frames.count) frames, worst \(worst) from ffmpeg's frame, nearest neighbour \(nearest)")
    }

    @Test(arguments: TimelineCase.allCases)
    func framesOfTheTimelineCorpus(clip: TimelineCase) throws {
        let folder = try TemporaryFolder()
        let path = folder.path + "/" + clip.fileName
        try clip.make(at: path, scratch: folder.path)
        let count = try ProbedFrames(path: path).frameTimes.count
        let frames = Array(Set(stride(from: 0, to: count, by: 7).map { $0 } + [1, count - 1])).sorted()
        let (worst, nearest) = try check(path, frames: frames)
        print("exact frame pictures, \(clip): \(frames.count) frames, worst \(worst) from ffmpeg's frame, nearest neighbour \(nearest)")
    }
}
