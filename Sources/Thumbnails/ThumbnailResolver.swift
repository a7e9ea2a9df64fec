import Failures
import Foundation
import MediaFormats
import MediaManager
import POSIX
import PTP

/// Turns the camera's answer to GetThumb into a thumbnail to show. Runs on the thumbnail queue's thread, in
/// the completion of each fetch, so that fallbacks keep the queue's order and Ctrl-C (`cancelAll`) drops
/// them with the fetches still waiting.
///
/// In order: the camera's own thumbnail (for a photo, with the EXIF orientation of the photo itself, which
/// its thumbnail shares); else, for a video, its `.THM` sidecar, then the first keyframe of its `.LRF` proxy
/// (or of the file itself when it is one), decoded by ffmpeg; for a photo, its EXIF thumbnail read through a
/// partial read; else `NoThumbnail`. Every read is bounded.
public struct ThumbnailResolver: Sendable {
    public let session: MediaSession
    /// Nil when ffmpeg is not installed: proxies are then not decoded.
    public let keyframes: KeyframeDecoder?
    /// Set by Ctrl-C; stops a fallback between steps and kills a running ffmpeg.
    public let cancellation: Cancellation
    /// Look up the photo's EXIF orientation (one partial read per photo); only worth it when drawing.
    public var wantsOrientation = true

    public init(session: MediaSession, keyframes: KeyframeDecoder?, cancellation: Cancellation) {
        self.session = session
        self.keyframes = keyframes
        self.cancellation = cancellation
    }

    /// The most bytes read from a `.THM` sidecar.
    static let maxSidecarBytes = 1 << 20

    public func resolve(_ file: MediaFile, device: Result<[UInt8], Error>) -> Result<Thumbnail, Error> {
        let deviceError: Error
        switch device {
        case .success(let bytes) where !bytes.isEmpty:
            var thumbnail = Thumbnail(jpeg: bytes, origin: .device)
            if wantsOrientation, file.kind == .jpeg { thumbnail.orientation = orientation(of: file, thumbnail: bytes) }
            return .success(thumbnail)
        case .success:
            deviceError = NoThumbnail(.emptyFromCamera)
        case .failure(let error):
            if error.isCancellation || error.failureCategory == .disconnected { return .failure(error) }
            deviceError = error
        }
        if cancellation.isCancelled { return .failure(CancellationError()) }
        return Result {
            if let thumbnail = try fallback(for: file) { return thumbnail }
            throw Self.saysNone(deviceError) ? NoThumbnail(noneReason(for: file)) : deviceError
        }
    }

    // MARK: - Fallbacks

    private func fallback(for file: MediaFile) throws -> Thumbnail? {
        guard session.camera.summary.canReadRanges else { return nil }
        if file.kind.isVideo {
            let group = session.catalog.group(of: file)
            if let sidecar = group.first(where: { $0.kind == .thumbnail }), sidecar.size <= Self.maxSidecarBytes {
                let bytes = try session.byteSource(for: sidecar).readFully(
                    offset: 0, count: Int(sidecar.size), what: sidecar.name)
                let orientation = (try? JPEGReader().read(from: MemoryByteSource(bytes)))?.exif?.orientation ?? 1
                return Thumbnail(jpeg: bytes, orientation: orientation, origin: .sidecar(sidecar.name))
            }
            let proxy = file.kind == .lowResolutionVideo ? file : group.first { $0.kind == .lowResolutionVideo }
            if let proxy, let keyframes {
                if cancellation.isCancelled { throw CancellationError() }
                return try firstKeyframe(of: proxy, decoder: keyframes)
            }
        } else if file.kind == .jpeg {
            let info = try JPEGReader().read(from: session.byteSource(for: file))
            if let bytes = info.exif?.thumbnail, !bytes.isEmpty {
                return Thumbnail(jpeg: bytes, orientation: info.exif?.orientation ?? 1, origin: .exif)
            }
        }
        return nil
    }

    /// The proxy's first keyframe as a JPEG: the movie box and that one sample are all that is read.
    private func firstKeyframe(of proxy: MediaFile, decoder: KeyframeDecoder) throws -> Thumbnail {
        let jpeg = try MovieKeyframe.jpeg(
            from: session.byteSource(for: proxy), name: proxy.name, decoder: decoder,
            cancellation: cancellation)
        return Thumbnail(jpeg: jpeg, origin: .proxyKeyframe(proxy.name))
    }

    // MARK: - Orientation

    /// The EXIF orientation for a photo's thumbnail: the thumbnail's own when it carries one, else the photo's
    /// (an EXIF thumbnail is stored the way its photo is). 1 when neither says or the photo cannot be read.
    private func orientation(of file: MediaFile, thumbnail: [UInt8]) -> Int {
        if let own = (try? JPEGReader().read(from: MemoryByteSource(thumbnail)))?.exif?.orientation { return own }
        guard session.camera.summary.canReadRanges else { return 1 }
        return (try? JPEGReader().read(from: session.byteSource(for: file)))?.exif?.orientation ?? 1
    }

    // MARK: - None

    /// True when the camera's error means "this file has no thumbnail" rather than a failure.
    static func saysNone(_ error: Error) -> Bool {
        if error is NoThumbnail || error as? CameraCapabilityError == .noThumbnail { return true }
        guard case PTPError.response(let code, _, _) = error else { return false }
        return code == .noThumbnailPresent || code == .operationNotSupported
    }

    private func noneReason(for file: MediaFile) -> NoThumbnail.Reason {
        guard file.kind.isVideo else { return .noneForPhoto }
        if keyframes == nil, session.catalog.group(of: file).contains(where: { $0.kind == .lowResolutionVideo }) {
            return .proxyNeedsFFmpeg
        }
        return .noSidecarOrProxy
    }
}
