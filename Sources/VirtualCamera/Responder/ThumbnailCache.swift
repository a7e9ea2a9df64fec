import Foundation
import PTP

/// Thumbnails for GetThumb, computed once per object and kept while the object lives.
final class ThumbnailCache: @unchecked Sendable {
    let card: Card
    private let lock = NSLock()
    private var cache: [UInt32: [UInt8]] = [:]

    init(card: Card) { self.card = card }

    func cachedSize(for handle: UInt32) -> UInt32? {
        lock.withLock { cache[handle].map { UInt32($0.count) } }
    }

    func thumbnail(for handle: UInt32) throws -> [UInt8] {
        if let cached = lock.withLock({ cache[handle] }) { return cached }
        guard let object = card.object(handle), !object.isFolder else {
            throw CardError.unsupported("no thumbnail")
        }
        throw CardError.unsupported("no thumbnail for \(object.name)")
    }
}
