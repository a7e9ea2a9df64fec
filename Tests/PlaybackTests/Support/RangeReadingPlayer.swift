import Foundation
import MediaFormats
import POSIX

@testable import Playback

/// A stand-in for a real player: on open, seek and step it fetches, through the streaming endpoint, what a
/// player needs to show the frame: the file's head up to the end of the movie box, then every sample from the
/// keyframe at or before the position up to the frame shown. It records the commands it was given and checks
/// each range against the file when it knows the file's bytes.
final class RangeReadingPlayer: Player, Sendable {
    private struct State {
        var url: String?
        var position = 0.0
        var paused = true
        var running = false
        var handler: (@Sendable (PlayerEvent) -> Void)?
        var calls: [String] = []
        var bytesFetched = 0
        var mismatches = 0
        var failOpen = false
    }

    private let state = Locked(State())
    private let media: PlaybackMedia
    private let reference: [UInt8]?

    var calls: [String] { state.withLock { $0.calls } }
    var bytesFetched: Int { state.withLock { $0.bytesFetched } }
    var mismatches: Int { state.withLock { $0.mismatches } }
    var failOpen: Bool {
        get { state.withLock { $0.failOpen } }
        set { state.withLock { $0.failOpen = newValue } }
    }

    /// What `open` throws when `failOpen` is set.
    static let refusedToStart = PlaybackError(.player("range-reader", .didNotStart(SystemError(.start, on: "range-reader", errno: EPERM))))

    init(media: PlaybackMedia, reference: [UInt8]? = nil) {
        self.media = media
        self.reference = reference
    }

    var name: String? { "range-reader" }
    var isRunning: Bool { state.withLock { $0.running } }

    func open(url: String, title: String, at position: Double, paused: Bool) throws(PlaybackError) {
        let refused = state.withLock { state in
            state.calls.append("open \(title) at \(position) \(paused ? "paused" : "playing")")
            return state.failOpen
        }
        if refused { throw Self.refusedToStart }
        state.withLock { state in
            state.url = url
            state.running = true
            state.position = position
            state.paused = paused
        }
        let movieEnd = media.movie.movieBoxOffset + media.movie.movieBoxSize
        try fetch(media.movie.isFastStart ? 0..<movieEnd : media.movie.movieBoxOffset..<movieEnd)
        try show(position)
    }

    func setPaused(_ paused: Bool) throws(PlaybackError) {
        state.withLock { state in
            state.calls.append(paused ? "pause" : "resume")
            state.paused = paused
        }
    }

    func seek(to seconds: Double, landing: SeekLanding) throws(PlaybackError) {
        state.withLock { state in
            state.calls.append("seek \(String(format: "%.4f", seconds))" + (landing == .keyframe ? " keyframe" : ""))
            state.position = seconds
        }
        try show(seconds)
    }

    func observe() -> PlayerObservation? {
        state.withLock { state -> PlayerObservation? in
            state.running ? PlayerObservation(position: state.position, paused: state.paused, reachedEnd: false) : nil
        }
    }

    func close() {
        state.withLock { state in
            if state.running { state.calls.append("close") }
            state.running = false
        }
    }

    func setEventHandler(_ handler: @escaping @Sendable (PlayerEvent) -> Void) {
        state.withLock { $0.handler = handler }
    }

    /// Pretends the player did something by itself.
    func send(_ event: PlayerEvent) {
        let handler = state.withLock { state in
            if event == .exited { state.running = false }
            return state.handler
        }
        handler?(event)
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
        guard let url = state.withLock({ $0.url }), !range.isEmpty else { return }
        do {
            let parsed = URLComponents(string: url)!
            let client = try TestHTTPClient(port: UInt16(parsed.port!))
            let response = try client.request("GET", parsed.percentEncodedPath, headers: ["Range: bytes=\(range.lowerBound)-\(range.upperBound - 1)"])
            let reference = self.reference
            state.withLock { state in
                state.bytesFetched += response.body.count
                if response.status != 206 || response.body.count != range.count { state.mismatches += 1 }
                if let reference, response.body != Array(reference[Int(range.lowerBound)..<Int(range.upperBound)]) { state.mismatches += 1 }
            }
        } catch {
            throw PlaybackError(.player("range-reader", .couldNotOpenStream(why: "\(error)")))
        }
    }
}
