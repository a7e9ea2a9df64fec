import Foundation
import MediaFormats
import PTP

/// Thumbnails for GetThumb, computed once per object and kept while the object lives: the EXIF
/// thumbnail a JPEG carries, or for a video the EXIF thumbnail of its `.THM` sidecar when it has one.
final class ThumbnailCache: @unchecked Sendable {
    let card: Card
    private let lock = NSLock()
    private var cache: [UInt32: [UInt8]] = [:]
    /// Thumbnails are small; a bigger "thumbnail" is not one.
    static let maximumSize = 256 << 10

    init(card: Card) { self.card = card }

    func cachedSize(for handle: UInt32) -> UInt32? {
        lock.withLock { cache[handle].map { UInt32($0.count) } }
    }

    func thumbnail(for handle: UInt32) throws -> [UInt8] {
        if let cached = lock.withLock({ cache[handle] }) { return cached }
        guard let object = card.object(handle), !object.isFolder else { throw CardError.unsupported("no thumbnail") }
        let kind = MediaKind(fileName: object.name)
        var source = handle
        if kind.isVideo, let thm = sidecar(of: object, extension: "THM") { source = thm }
        guard MediaKind(fileName: card.object(source)?.name ?? "") == .jpeg || MediaKind(fileName: card.object(source)?.name ?? "") == .thumbnail else {
            throw CardError.unsupported("no thumbnail for \(object.name)")
        }
        let reader = try card.openContent(source)
        let bytes: [UInt8]?
        do {
            bytes = try JPEGReader().thumbnail(from: ContentByteSource(reader))
        } catch {
            throw CardError.unsupported("no thumbnail for \(object.name): \(error)")
        }
        guard let bytes, !bytes.isEmpty, bytes.count <= Self.maximumSize else {
            throw CardError.unsupported("no thumbnail in \(object.name)")
        }
        lock.withLock { cache[handle] = bytes }
        return bytes
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
