import Foundation
import MediaFormats
import POSIX
import PTP

/// A camera file as a `ByteRangeSource`: every read is one GetPartialObject, so the MP4 reader and the
/// player touch only the ranges they need and never download the file. Counts what it read.
public final class CameraByteSource: ByteRangeSource, Sendable {
    public let camera: Camera
    public let file: MediaFile
    private let counts = Locked((reads: 0, bytes: UInt64(0)))
    /// Largest single request; bigger reads are split.
    public static let maximumRequest = 16 << 20

    public init(camera: Camera, file: MediaFile) {
        self.camera = camera
        self.file = file
    }

    public var length: UInt64 { file.size }
    public var readCount: Int { counts.withLock { $0.reads } }
    public var bytesRead: UInt64 { counts.withLock { $0.bytes } }

    public func read(offset: UInt64, count: Int) throws -> [UInt8] {
        guard count > 0, offset < length else { return [] }
        let wanted = Int(min(UInt64(count), length - offset))
        let sink = BufferSink(limit: wanted)
        var position = offset
        while sink.bytes.count < wanted {
            let ask = min(wanted - sink.bytes.count, Self.maximumRequest)
            let got = try camera.read(file, offset: position, count: ask, into: sink)
            counts.withLock {
                $0.reads += 1
                $0.bytes += UInt64(got)
            }
            if got == 0 { break }
            position += UInt64(got)
        }
        return sink.bytes
    }
}

extension MediaSession {
    /// Random access to a file on the camera, for the playback layer and container readers.
    public func byteSource(for file: MediaFile) -> CameraByteSource {
        CameraByteSource(camera: camera, file: file)
    }

    /// The movie's metadata read from the camera through a few partial reads (the `moov` box only).
    public func movieInfo(for file: MediaFile) throws -> MovieInfo {
        try MovieReader().read(from: byteSource(for: file))
    }

    /// Duration, resolution, frame rate and orientation of a video: from the listing when the device
    /// reported them, else from the container read through partial reads.
    public func videoDetails(for file: MediaFile) throws -> VideoDetails {
        if let known = file.video, known.duration != nil, known.width != nil { return known }
        return VideoDetails(movie: try movieInfo(for: file))
    }
}

extension VideoDetails {
    /// What a movie's container says: the one duration `ls -l`, `info` and `play` show (nil when the
    /// container does not say), the first video track's size, rate (and range, when it varies) and codec.
    public init(movie: MovieInfo) {
        let track = movie.videoTrack
        self.init(
            duration: movie.durationSeconds, width: track?.displayWidth, height: track?.displayHeight,
            framesPerSecond: track?.frameRate, frameRateRange: track?.variableFrameRate,
            codec: track?.codec?.description)
    }
}
