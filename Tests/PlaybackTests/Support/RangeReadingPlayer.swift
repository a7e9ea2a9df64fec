import Foundation
import MediaFormats
import POSIX

@testable import Playback

/// A stand-in for a real player: on open, seek and step it fetches, through the streaming endpoint, what a
/// player needs to show the frame: the file's head up to the end of the movie box, then every sample from the
/// keyframe at or before the position up to the frame shown. It records the commands it was given and checks
/// each range against the file when it knows the file's bytes.
final class RangeReadingPlayer: Player, @unchecked Sendable {
    private let lock = NSLock()
    private let media: PlaybackMedia
    private let reference: [UInt8]?
    private var url: String?
    private var position = 0.0
    private var paused = true
    private var running = false
    private var handler: (@Sendable (PlayerEvent) -> Void)?
    private(set) var calls: [String] = []
    private(set) var bytesFetched = 0
    private(set) var mismatches = 0
    var failOpen = false

    /// What `open` throws when `failOpen` is set.
    static let refusedToStart = PlaybackError(.player("range-reader", .didNotStart(SystemError(.start, on: "range-reader", errno: EPERM))))

    init(media: PlaybackMedia, reference: [UInt8]? = nil) {
        self.media = media
        self.reference = reference
    }

    var name: String? { "range-reader" }
    var isRunning: Bool { lock.withLock { running } }

    func open(url: String, title: String, at position: Double, paused: Bool) throws(PlaybackError) {
        lock.withLock { calls.append("open \(title) at \(position) \(paused ? "paused" : "playing")") }
        if failOpen { throw Self.refusedToStart }
        lock.withLock {
            self.url = url
            running = true
            self.position = position
            self.paused = paused
        }
        let movieEnd = media.movie.movieBoxOffset + media.movie.movieBoxSize
        try fetch(media.movie.isFastStart ? 0..<movieEnd : media.movie.movieBoxOffset..<movieEnd)
        try show(position)
    }

    func setPaused(_ paused: Bool) throws(PlaybackError) {
        lock.withLock {
            calls.append(paused ? "pause" : "resume")
            self.paused = paused
        }
    }

    func seek(to seconds: Double) throws(PlaybackError) {
        lock.withLock {
            calls.append("seek \(String(format: "%.4f", seconds))")
            position = seconds
        }
        try show(seconds)
    }

    func observe() -> PlayerObservation? {
        lock.withLock { running ? PlayerObservation(position: position, paused: paused, reachedEnd: false) : nil }
    }

    func close() {
        lock.withLock {
            if running { calls.append("close") }
            running = false
        }
    }

    func setEventHandler(_ handler: @escaping @Sendable (PlayerEvent) -> Void) {
        lock.withLock { self.handler = handler }
    }

    /// Pretends the player did something by itself.
    func send(_ event: PlayerEvent) {
        if event == .exited { lock.withLock { running = false } }
        lock.withLock { handler }?(event)
    }

    /// Fetches the samples needed to show `seconds`: keyframe to frame, in decode order.
    private func show(_ seconds: Double) throws(PlaybackError) {
        let timeline = media.timeline
        let table = media.video.sampleTable
        let first = timeline.keyframe(atOrBefore: seconds).frame
        let last = timeline.frame(at: seconds)
        let samples = timeline.frameSamples[first...max(first, last)].sorted()
        for index in samples {
            let sample = table.samples[index]
            try fetch(sample.offset..<(sample.offset + UInt64(sample.size)))
        }
    }

    private func fetch(_ range: Range<UInt64>) throws(PlaybackError) {
        guard let url = lock.withLock({ url }), !range.isEmpty else { return }
        do {
            let parsed = URLComponents(string: url)!
            let client = try TestHTTPClient(port: UInt16(parsed.port!))
            let response = try client.request("GET", parsed.percentEncodedPath, headers: ["Range: bytes=\(range.lowerBound)-\(range.upperBound - 1)"])
            lock.withLock {
                bytesFetched += response.body.count
                if response.status != 206 || response.body.count != range.count { mismatches += 1 }
                if let reference, response.body != Array(reference[Int(range.lowerBound)..<Int(range.upperBound)]) { mismatches += 1 }
            }
        } catch {
            throw PlaybackError(.player("range-reader", .couldNotOpenStream(why: "\(error)")))
        }
    }
}
