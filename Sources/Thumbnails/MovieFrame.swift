import Foundation
import MediaFormats
import MediaManager
import POSIX

/// One frame of a movie as a JPEG, the frame itself and not its keyframe: the samples from the keyframe
/// before it to it (`FrameDecodeRange`) are read by range, a few reads whatever their number, never the
/// whole file, and go to `KeyframeDecoder` (ffmpeg, bounded in time and output) as one raw stream; the
/// picture it puts out for the frame comes back.
public enum MovieFrame {
    /// The most bytes decoded for one frame: a GOP of 4K at 100 Mbit/s with a keyframe a second.
    public static let maxDecodedBytes = 64 << 20
    /// Samples closer than this in the file are read in one request (an audio chunk between two video
    /// chunks costs less than another round trip to the camera).
    static let readGap: UInt64 = 64 << 10

    /// Frame `number` (counted from 0 on the track's presentation timeline, as `status` counts) of `track`,
    /// read from `source`.
    public static func jpeg(
        frame number: Int, of track: TrackInfo, from source: ByteRangeSource, name: String, decoder: KeyframeDecoder,
        cancellation: Cancellation
    ) throws -> [UInt8] {
        guard let format = track.codec else { throw NoThumbnail(.noVideoTrack(name: name)) }
        guard let codec = AnnexB.Codec(format: format), let payload = track.codecConfiguration else {
            throw NoThumbnail(.unsupportedCodec(name: name, format: format.description))
        }
        let table = track.sampleTable
        guard let timeline = try? track.timeline.get(),
            let range = FrameDecodeRange(frame: number, of: timeline, table: table)
        else { throw KeyframeError.frameNotInTables(name: name, frame: number) }
        let bytes = range.byteCount(in: table)
        guard bytes <= UInt64(maxDecodedBytes) else {
            throw KeyframeError.frameTooFarFromKeyframe(name: name, frame: number, bytes: bytes, limit: maxDecodedBytes)
        }
        let samples = try read(range.samples.map { table.samples[$0] }, from: source, name: name)
        if cancellation.isCancelled { throw CancellationError() }
        let stream = try AnnexB.stream(AnnexB.Configuration(payload, codec: codec), samples: samples)
        var decoder = decoder
        // A GOP of a large video takes longer to decode than one keyframe.
        decoder.timeout = max(decoder.timeout, 30)
        return try decoder.jpeg(
            from: stream, codec: codec, rotation: track.rotation, picture: range.picturesBefore, cancellation: cancellation)
    }

    /// The bytes of `samples`, each in the order given: neighbours in the file are read together.
    static func read(_ samples: [Sample], from source: ByteRangeSource, name: String) throws -> [[UInt8]] {
        let byOffset = samples.indices.sorted { samples[$0].offset < samples[$1].offset }
        var bytes = [[UInt8]](repeating: [], count: samples.count)
        var next = 0
        while next < byOffset.count {
            // One span: samples whose gaps are small, read at once and cut apart.
            let start = samples[byOffset[next]].offset
            var end = start + UInt64(samples[byOffset[next]].size)
            var last = next
            while last + 1 < byOffset.count {
                let following = samples[byOffset[last + 1]]
                guard following.offset <= end + readGap else { break }
                end = max(end, following.offset + UInt64(following.size))
                last += 1
            }
            let span = try source.readFully(offset: start, count: Int(end - start), what: "the frames of \(name)")
            for position in next...last {
                let sample = samples[byOffset[position]]
                let from = Int(sample.offset - start)
                bytes[byOffset[position]] = Array(span[from..<from + Int(sample.size)])
            }
            next = last + 1
        }
        return bytes
    }
}
