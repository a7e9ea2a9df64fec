import Foundation
import MediaFormats
import POSIX
import PTP

/// What a file's own bytes say where the device's listing says nothing or may be wrong: the kind of a file
/// whose name has no telling extension (format 0x3000, an unknown code, or a format code its first bytes
/// contradict), and a video's duration and size when the listing gave none (dimensions reported as 0).
/// Read through partial reads only, lazily for the files a listing shows, within a budget per listing,
/// and cached for the session by (store, handle, size): a card of 10,000 files costs nothing at open.
public final class ContentCheck: Sendable {
    /// The most files one listing reads headers of; the rest show what the device said.
    public static let filesPerListing = 32
    /// How long one listing may spend reading headers, in seconds.
    public static let secondsPerListing: TimeInterval = 2

    private struct Key: Hashable {
        var storage: UInt32
        var id: UInt32
        var size: UInt64
    }

    /// What was learnt of one file (nil fields: nothing learnt, or not readable).
    private struct Facts {
        var kind: MediaKind?
        var video: VideoDetails?
    }

    private let cache = Locked<[Key: Facts]>([:])

    public init() {}

    /// The files as their bytes describe them: `kind` from the first bytes when the name says nothing,
    /// `video` from the container when the listing gave no duration or size. Reads at most
    /// `filesPerListing` files' headers (and for at most `secondsPerListing`); files past the budget, and
    /// every file of a camera without partial reads, come back as listed (their details unknown).
    public func described(_ files: [MediaFile], session: MediaSession) -> [MediaFile] {
        let canRead = session.camera.canReadRanges
        var reads = 0
        let deadline = ProcessInfo.processInfo.systemUptime + Self.secondsPerListing
        return files.map { file in
            guard !file.isFolder, file.size > 0, Self.needsCheck(file) else { return file }
            let key = Key(storage: file.storageID, id: file.id, size: file.size)
            if let known = cache.withLock({ $0[key] }) { return Self.apply(known, to: file) }
            guard canRead, reads < Self.filesPerListing, ProcessInfo.processInfo.systemUptime < deadline else {
                return file
            }
            reads += 1
            let facts = read(file, session: session)
            cache.withLock { $0[key] = facts }
            return Self.apply(facts, to: file)
        }
    }

    /// True when the bytes may tell more than the listing: a name that says nothing (its kind then came
    /// from the format code, which can be wrong), or a video without duration or size.
    static func needsCheck(_ file: MediaFile) -> Bool {
        if MediaKind(fileName: file.name) == .other { return true }
        return file.kind.isVideo && (file.video?.duration == nil || file.video?.width == nil)
    }

    private func read(_ file: MediaFile, session: MediaSession) -> Facts {
        var facts = Facts()
        var kind = file.kind
        if MediaKind(fileName: file.name) == .other,
            let start = try? session.byteSource(for: file).read(offset: 0, count: MediaKind.contentSniffLength)
        {
            facts.kind = MediaKind(contentStart: start)
            if let sniffed = facts.kind { kind = sniffed }
        }
        if kind.isVideo, file.video?.duration == nil || file.video?.width == nil,
            let movie = try? session.movieInfo(for: file)
        {
            facts.video = VideoDetails(movie: movie)
        }
        return facts
    }

    private static func apply(_ facts: Facts, to file: MediaFile) -> MediaFile {
        var file = file
        if let kind = facts.kind { file.kind = kind }
        if let video = facts.video {
            var merged = file.video ?? VideoDetails()
            merged.duration = merged.duration ?? video.duration
            merged.width = merged.width ?? video.width
            merged.height = merged.height ?? video.height
            merged.framesPerSecond = merged.framesPerSecond ?? video.framesPerSecond
            merged.frameRateRange = merged.frameRateRange ?? video.frameRateRange
            merged.codec = merged.codec ?? video.codec
            file.video = merged
        }
        return file
    }
}
