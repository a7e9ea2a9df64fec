import Foundation
import MediaFormats
import POSIX
import PTP

/// What the camera reports of a video in its object properties (duration, size, frame rate, codec),
/// read once from the container's `moov` and kept while the file is unchanged.
/// A value the container does not give (a duration nothing declares, a rate of a track without frames) is
/// nil, and the property is left out rather than reported as 0.
struct VideoFacts: Sendable {
    var durationMilliseconds: UInt32?
    var width: UInt32
    var height: UInt32
    var framesPerThousandSeconds: UInt32?
    var fourCC: UInt32
}

final class VideoFactsCache: Sendable {
    let card: Card
    private struct Key: Hashable {
        var handle: UInt32
        var size: UInt64
        var modified: Date
    }
    /// nil values remember files that are not readable movies, so they are not parsed again.
    private let cache = Locked([Key: VideoFacts?]())

    init(card: Card) { self.card = card }

    func facts(for object: CardObject) -> VideoFacts? {
        guard !object.isFolder, MediaKind(fileName: object.name).isVideo else { return nil }
        let key = Key(handle: object.handle, size: object.size, modified: object.modified)
        if let cached = cache.withLock({ $0[key] }) { return cached }
        let facts = read(object)
        cache.withLock { $0[key] = facts }
        return facts
    }

    private func read(_ object: CardObject) -> VideoFacts? {
        guard let reader = try? card.openContent(object.handle),
            let movie = try? MovieReader().read(from: ContentByteSource(reader)),
            let track = movie.videoTrack
        else { return nil }
        var fourCC: UInt32 = 0
        if let codec = track.codec?.description {
            for byte in codec.utf8.prefix(4) { fourCC = fourCC << 8 | UInt32(byte) }
        }
        return VideoFacts(
            durationMilliseconds: movie.durationSeconds.map { UInt32(clamping: Int(($0 * 1000).rounded())) },
            width: UInt32(clamping: track.displayWidth), height: UInt32(clamping: track.displayHeight),
            framesPerThousandSeconds: track.frameRate.map { UInt32(clamping: Int(($0 * 1000).rounded())) },
            fourCC: fourCC)
    }
}
