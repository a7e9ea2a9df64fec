import Foundation
import MediaFormats
import POSIX
import PTP

/// The one capture time of each file, resolved once and kept for the session: EXIF DateTimeOriginal (with
/// its sub-seconds and offset); for a movie QuickTime's creationdate, then the movie header's creation
/// time; then a DJI clip's `.SRT` first timestamp; then the camera's date (a card folder's file time).
/// Nonsense dates (1970, 1980-01-01, 2000-01-01 00:00, more than a day ahead) are passed over.
///
/// Reading costs header reads through partial reads (one request for a JPEG's EXIF, two or three for a
/// movie's header), so nothing is read when a camera is opened: a listing reads within a budget and shows
/// the camera's date, marked as such, for the rest (`shown`); `find` and `import` read what they need.
/// Kept by (store, handle, size), as `ContentCheck` keeps its facts.
public final class CaptureTimes: Sendable {
    /// The most files one listing reads headers of for their times; the rest show the camera's date.
    public static let filesPerListing = 32
    /// How long one listing may spend reading headers for times, in seconds.
    public static let secondsPerListing: TimeInterval = 2

    struct Key: Hashable {
        var storage: UInt32
        var id: UInt32
        var size: UInt64
        init(_ file: MediaFile) {
            storage = file.storageID
            id = file.id
            size = file.size
        }
    }

    private let cache = Locked<[Key: ResolvedCaptureTime]>([:])

    public init() {}

    /// True when the file's own bytes (or its `.SRT`) may hold its capture time: a JPEG's EXIF, a movie's
    /// header, a telemetry file's first timestamp.
    public static func readsContent(_ file: MediaFile) -> Bool {
        guard !file.isFolder, file.size > 0 else { return false }
        switch file.kind {
        case .jpeg, .mp4, .mov, .lowResolutionVideo, .telemetry: return true
        default: return false
        }
    }

    /// The time resolved for `file` before, if any.
    public func known(_ file: MediaFile) -> ResolvedCaptureTime? { cache.withLock { $0[Key(file)] } }

    /// Keeps a time found elsewhere (the import ledger's record of the file).
    public func remember(_ resolved: ResolvedCaptureTime, for file: MediaFile) {
        cache.withLock { $0[Key(file)] = resolved }
    }

    /// How many files have a resolved time (for tests and measurements).
    public var count: Int { cache.withLock { $0.count } }
}

extension MediaSession {
    /// The date the device lists for `file` as a capture time: the camera's date, or a card folder's file
    /// time (`dir:`); nil when it lists none.
    public func listedCaptureTime(_ file: MediaFile) -> CaptureTime? {
        guard let date = file.captureDate else { return nil }
        if case .folder = url { return CaptureTime(instant: date, source: .fileTime) }
        return CaptureTime(listed: date, source: .camera)
    }

    /// The capture time to show now, reading nothing: the resolved one, else the listed date (pending when
    /// the file's own bytes may say more and this camera can read them).
    public func shownCaptureTime(_ file: MediaFile) -> ShownCaptureTime {
        if let known = captureTimes.known(file) { return ShownCaptureTime(time: known.time, pending: false) }
        let listed = listedCaptureTime(file)
        let pending = CaptureTimes.readsContent(file) && camera.canReadRanges
        return ShownCaptureTime(time: listed.flatMap { $0.nonsense() == nil ? $0 : nil }, pending: pending)
    }

    /// The times of `files` for a listing: the known ones, and headers read for at most
    /// `CaptureTimes.filesPerListing` others (and for at most `secondsPerListing`); the rest pending.
    public func listingCaptureTimes(_ files: [MediaFile]) -> [ShownCaptureTime] {
        var reads = 0
        let deadline = ProcessInfo.processInfo.systemUptime + CaptureTimes.secondsPerListing
        return files.map { file in
            let shown = shownCaptureTime(file)
            guard shown.pending, reads < CaptureTimes.filesPerListing, ProcessInfo.processInfo.systemUptime < deadline
            else { return shown }
            reads += 1
            let resolved = resolveCaptureTime(file)
            return captureTimes.known(file) != nil ? ShownCaptureTime(time: resolved.time, pending: false) : shown
        }
    }

    /// Resolves the times of every file among `files` not known yet (`find --since`, `import`), telling
    /// `progress` how many are done of how many; stops early when `cancellation` says so.
    public func resolveCaptureTimes(
        _ files: [MediaFile], progress: ((Int, Int) -> Void)? = nil, cancellation: Cancellation = .never
    ) {
        let unknown = files.filter { CaptureTimes.readsContent($0) && captureTimes.known($0) == nil }
        guard camera.canReadRanges, !unknown.isEmpty else { return }
        var last = monotonicSeconds()
        for (index, file) in unknown.enumerated() {
            if cancellation.isCancelled { return }
            _ = resolveCaptureTime(file)
            let now = monotonicSeconds()
            if now - last >= 0.1 || index == unknown.count - 1 {
                progress?(index + 1, unknown.count)
                last = now
            }
        }
    }

    /// The capture time of `file`, read from its header (within `prefix` when its first bytes are in hand,
    /// so a download's first request serves it) and kept for the session. A read that fails for the
    /// camera's sake (a timeout, a link gone) is not kept: the listed date stands in, and the next ask
    /// reads again.
    @discardableResult
    public func resolveCaptureTime(
        _ file: MediaFile, prefix: [UInt8]? = nil, local: (any ByteRangeSource)? = nil
    ) -> ResolvedCaptureTime {
        if let known = captureTimes.known(file) { return known }
        var setAside: [String] = []
        var deviceTrouble = false
        func take(_ time: CaptureTime?) -> CaptureTime? {
            guard let time else { return nil }
            if let why = time.nonsense() {
                setAside.append("\(time.source.rawValue) \(why)")
                return nil
            }
            return time
        }
        let listed = listedCaptureTime(file)
        var found: CaptureTime?
        if CaptureTimes.readsContent(file), camera.canReadRanges || prefix != nil || local != nil {
            let remote = byteSource(for: file)
            let source: any ByteRangeSource = local ?? prefix.map { PrefixedBytes(prefix: $0, rest: remote) } ?? remote
            do {
                let (times, unreadable) = try contentTimes(of: file, source: source, listed: listed)
                setAside += unreadable
                found = times.lazy.compactMap(take).first
            } catch let error as PTPError where !error.isMalformed && error.responseCode == nil {
                deviceTrouble = true
            } catch {
                // Not the format its name says, or malformed: the next source.
            }
            if found == nil, file.kind.isVideo, !deviceTrouble, let srt = srtSidecar(of: file) {
                do {
                    let bytes = try byteSource(for: srt).read(offset: 0, count: 4096)
                    found = take(CaptureTime.srt(String(decoding: bytes, as: UTF8.self)))
                } catch let error as PTPError where !error.isMalformed && error.responseCode == nil {
                    deviceTrouble = true
                } catch {}
            }
        }
        let resolved = ResolvedCaptureTime(time: found ?? take(listed), setAside: setAside)
        if !deviceTrouble { captureTimes.remember(resolved, for: file) }
        return resolved
    }

    /// The times `file`'s own bytes hold, best first, and the values written where a time belongs that are
    /// no time (`EXIF 0000:00:00 00:00:00`).
    func contentTimes(
        of file: MediaFile, source: any ByteRangeSource, listed: CaptureTime?
    ) throws -> ([CaptureTime], [String]) {
        switch file.kind {
        case .jpeg:
            guard let exif = try JPEGReader().exifDates(from: source) else { return ([], []) }
            let unreadable = [exif.dateTimeOriginal].compactMap { $0 }.filter { CaptureTime.exif($0) == nil }
            return ([exif.captureTime].compactMap { $0 }, unreadable.map { "EXIF \($0)" })
        case .mp4, .mov, .lowResolutionVideo:
            let dates = try MovieDates.read(from: source)
            let quickTime = dates.quickTimeCreationDate.flatMap(CaptureTime.quickTime)
            let unreadable = dates.quickTimeCreationDate.flatMap { quickTime == nil ? "QuickTime \($0)" : nil }
            return ([quickTime, dates.movieHeaderTime(besides: listed)].compactMap { $0 }, [unreadable].compactMap { $0 })
        case .telemetry:
            let bytes = try source.read(offset: 0, count: 4096)
            return ([CaptureTime.srt(String(decoding: bytes, as: UTF8.self))].compactMap { $0 }, [])
        default:
            return ([], [])
        }
    }

    /// A video's `.SRT` telemetry beside it (same folder and name), if the card has one.
    func srtSidecar(of file: MediaFile) -> MediaFile? {
        catalog.group(of: file).dropFirst().first { $0.kind == .telemetry && $0.size > 0 }
    }
}

/// A file whose first bytes are in hand: reads within them cost no request, others go to `rest`.
struct PrefixedBytes: ByteRangeSource {
    let prefix: [UInt8]
    let rest: any ByteRangeSource

    var length: UInt64 { rest.length }

    func read(offset: UInt64, count: Int) throws -> [UInt8] {
        guard count > 0, offset < length else { return [] }
        let end = offset + min(UInt64(count), length - offset)
        if end <= UInt64(prefix.count) { return Array(prefix[Int(offset)..<Int(end)]) }
        return try rest.read(offset: offset, count: count)
    }
}
