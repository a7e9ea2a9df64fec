import Foundation
import Imaging
import MediaFormats
import POSIX
import PTP

/// Thumbnails for GetThumb, computed once per object and kept while the object lives. In order: a
/// thumbnail file the card names for the object (the demo videos'), the EXIF thumbnail of a JPEG (or of
/// a video's `.THM` sidecar), a JPEG without one decoded from its whole file at 1/8 (or the libjpeg-turbo
/// scale that covers the thumbnail, in DCT space: cheap even for large photos), for a video the first
/// keyframe of its `.LRF` proxy or of itself (when a `VideoFrameDecoder` was given), else a generated tile
/// showing the kind of file (videos and files no picture can be made of).
final class ThumbnailCache: Sendable {
    let card: Card
    let videoFrames: VideoFrameDecoder?
    private let cache = Locked([UInt32: [UInt8]]())
    /// Thumbnails are small; a bigger "thumbnail" is not one.
    static let maximumSize = 256 << 10

    init(card: Card, videoFrames: VideoFrameDecoder? = nil) {
        self.card = card
        self.videoFrames = videoFrames
    }

    func cachedSize(for handle: UInt32) -> UInt32? {
        cache.withLock { $0[handle].map { UInt32($0.count) } }
    }

    func thumbnail(for handle: UInt32) throws -> [UInt8] {
        if let cached = cache.withLock({ $0[handle] }) { return cached }
        guard let object = card.object(handle), !object.isFolder else { throw CardError.unsupported("no thumbnail") }
        let bytes = try ownThumbnail(object) ?? scaledPhoto(object) ?? keyframe(of: object) ?? (try generated(object))
        cache.withLock { $0[handle] = bytes }
        return bytes
    }

    /// The thumbnail the file carries (or its sidecar), nil when it has none.
    private func ownThumbnail(_ object: CardObject) throws -> [UInt8]? {
        if let path = card.thumbnailFile(object.handle) {
            return try? CardFileSystem.readWholeFile(path, limit: Self.maximumSize)
        }
        let kind = MediaKind(fileName: object.name)
        var source = object.handle
        if kind.isVideo {
            guard let thm = sidecar(of: object, extension: "THM") else { return nil }
            source = thm
        } else if kind != .jpeg && kind != .thumbnail {
            return nil
        }
        guard let reader = try? card.openContent(source),
            let bytes = try? JPEGReader().thumbnail(from: ContentByteSource(reader)),
            !bytes.isEmpty, bytes.count <= Self.maximumSize
        else { return nil }
        return bytes
    }

    /// The thumbnail's size: what cameras make (160x120), fitted to the picture's shape.
    static let thumbnailBox = PixelSize(width: 160, height: 120)
    /// The largest photo decoded for a thumbnail; larger files get none made from them.
    static let maximumPhotoBytes = 64 << 20

    /// A JPEG with no thumbnail of its own: the whole file at hand, decoded at the smallest DCT scale that
    /// covers the thumbnail, then fitted to it. Nil for other kinds, and for a file that does not decode.
    private func scaledPhoto(_ object: CardObject) -> [UInt8]? {
        guard MediaKind(fileName: object.name) == .jpeg, object.size > 0, object.size <= UInt64(Self.maximumPhotoBytes),
            let reader = try? card.openContent(object.handle),
            let jpeg = try? ContentByteSource(reader).read(offset: 0, count: Int(object.size)),
            let decoded = try? JPEGDecoder.decode(jpeg, fitting: Self.thumbnailBox, limits: .forTarget(Self.thumbnailBox)),
            let bytes = try? JPEGEncoder.encode(decoded.image.resized(toFit: Self.thumbnailBox)),
            bytes.count <= Self.maximumSize
        else { return nil }
        return bytes
    }

    /// A frame of the video: its `.LRF` proxy's first keyframe (a few kB to read), else its own.
    private func keyframe(of object: CardObject) -> [UInt8]? {
        let kind = MediaKind(fileName: object.name)
        guard kind.isVideo, let videoFrames else { return nil }
        let proxy = kind == .lowResolutionVideo ? nil : sidecar(of: object, extension: "LRF")
        for source in [proxy, object.handle].compactMap({ $0 }) {
            guard let reader = try? card.openContent(source),
                let bytes = try? videoFrames.firstKeyframeJPEG(of: ContentByteSource(reader)),
                bytes.starts(with: [0xFF, 0xD8]), bytes.count <= Self.maximumSize
            else { continue }
            return bytes
        }
        return nil
    }

    /// A tile for files without a thumbnail of their own, labelled with the extension.
    private func generated(_ object: CardObject) throws -> [UInt8] {
        let kind = MediaKind(fileName: object.name)
        let tile: PlaceholderThumbnail.Kind = kind.isVideo ? .video : kind.isImage ? .photo : .other
        let ext = object.name.contains(".") ? object.name.split(separator: ".").last.map { $0.uppercased() } : nil
        // Encoded here rather than with `PlaceholderThumbnail.make`, so a failure is an error response, not a trap.
        do {
            return try JPEGEncoder.encode(PlaceholderThumbnail.image(kind: tile, width: 160, height: 120, label: ext))
        } catch {
            throw CardError.unsupported("no thumbnail for \(object.name): \(error)")
        }
    }

    private func sidecar(of object: CardObject, extension ext: String) -> UInt32? {
        let stem = object.name.split(separator: ".").dropLast().joined(separator: ".").lowercased()
        return card.children(of: object.parent)?.first { h in
            guard let name = card.object(h)?.name.lowercased() else { return false }
            return name == stem + "." + ext.lowercased()
        }
    }
}

/// An object's bytes as a `ByteRangeSource`, for the MediaFormats readers.
struct ContentByteSource: ByteRangeSource {
    let reader: ContentReader
    init(_ reader: ContentReader) { self.reader = reader }
    var length: UInt64 { reader.length }

    func read(offset: UInt64, count: Int) throws -> [UInt8] {
        guard offset < length, count > 0 else { return [] }
        let n = Int(min(UInt64(count), length - offset))
        var bytes = [UInt8](repeating: 0, count: n)
        let got = try bytes.withUnsafeMutableBytes { try reader.read(at: offset, into: $0) }
        return Array(bytes[0..<got])
    }
}
