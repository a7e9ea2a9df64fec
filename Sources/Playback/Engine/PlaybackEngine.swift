import Foundation
import MediaFormats
import POSIX

/// The playback state machine: stopped, playing, paused, ended, over an injectable clock.
///
/// While playing, the position runs with the clock from the last anchor (a play, seek or a position a player
/// reported); reaching the duration ends playback. Seeks land on the frame shown at the time asked (or, asked
/// to, on the keyframe before it); steps move by frames in presentation order while paused. Every method may be called from any thread; observers are
/// called after the change, outside the engine's lock.
public final class PlaybackEngine: Sendable {
    private let machine: Locked<Machine>

    public init(clock: any PlaybackClock = SystemPlaybackClock()) {
        machine = Locked(Machine(clock: clock))
    }

    /// Called with the new status whenever the state changes (commands, the end of the clip, a player's
    /// report): the seed's playback state callback.
    public func setObserver(_ observer: (@Sendable (PlaybackStatus) -> Void)?) {
        machine.withLock { $0.observer = observer }
    }

    /// The loaded media, if any.
    public var loadedMedia: PlaybackMedia? { machine.withLock { $0.media } }

    /// Loads `media`, stopped at the start (replacing whatever was loaded).
    public func load(_ media: PlaybackMedia) {
        change { machine in
            machine.media = media
            machine.lastSeek = nil
            machine.setPosition(0, state: .stopped)
        }
    }

    /// Forgets the loaded media; the prompt stops showing playback.
    public func unload() {
        machine.withLock { machine in
            machine.media = nil
            machine.lastSeek = nil
            machine.state = .stopped
            machine.anchorPosition = 0
        }
    }

    // MARK: Commands

    /// Starts playing: from the start when stopped or ended, from where it is when paused.
    @discardableResult
    public func play() throws(PlaybackError) -> PlaybackStatus {
        try command { machine, _ in
            switch machine.state {
            case .playing: break
            case .paused: machine.setPosition(machine.currentPosition(), state: .playing)
            case .stopped, .ended: machine.setPosition(0, state: .playing)
            }
        }
    }

    /// Pauses playback; pausing a paused clip does nothing.
    @discardableResult
    public func pause() throws(PlaybackError) -> PlaybackStatus {
        try command { machine, media throws(PlaybackError) in
            switch machine.state {
            case .paused: break
            case .playing: machine.setPosition(machine.currentPosition(), state: .paused)
            case .stopped, .ended: throw PlaybackError.refusing(.pause, of: media.name, in: machine.state)
            }
        }
    }

    /// Resumes a paused clip; resuming a playing clip does nothing.
    @discardableResult
    public func resume() throws(PlaybackError) -> PlaybackStatus {
        try command { machine, media throws(PlaybackError) in
            switch machine.state {
            case .playing: break
            case .paused: machine.setPosition(machine.currentPosition(), state: .playing)
            case .stopped, .ended: throw PlaybackError.refusing(.resume, of: media.name, in: machine.state)
            }
        }
    }

    /// Stops playback and goes back to the start; the media stays loaded so `play` starts it again.
    @discardableResult
    public func stop() throws(PlaybackError) -> PlaybackStatus {
        try command { machine, _ in
            machine.lastSeek = nil
            machine.setPosition(0, state: .stopped)
        }
    }

    /// Moves to `target` (clamped into the clip): to the frame shown at that time, the last one whose time
    /// is at or before it (decoded from the keyframe before it, as mpv's precise seek), or with `.keyframe`
    /// to the keyframe at or before it. A frame number goes to that frame (or its keyframe). Playing stays
    /// playing; a stopped or ended clip is paused there.
    @discardableResult
    public func seek(_ target: SeekTarget, landing: SeekLanding = .frame) throws(PlaybackError) -> SeekOutcome {
        var outcome: SeekOutcome?
        _ = try command { machine, media throws(PlaybackError) in
            let timeline = media.timeline
            let aim = try SeekAim(target, from: machine.currentPosition(), in: timeline)
            let landed = landing == .frame ? aim.frame : timeline.decodedFrom(frame: aim.frame).frameIndex
            let position = timeline.frameTimes[landed]
            machine.setPosition(position, state: machine.state == .playing ? .playing : .paused)
            let decodedFrom = timeline.decodedFrom(frame: landed)
            let result = SeekOutcome(
                requested: aim.requested, requestedFrame: aim.requestedFrame, clamped: aim.clamped, target: aim.time,
                landing: landing, landed: position, frameIndex: landed, frameCount: timeline.frameCount,
                decodedFrom: decodedFrom, keyframeIndex: decodedFrom.keyframe, duration: timeline.duration,
                state: machine.state)
            machine.lastSeek = result
            outcome = result
        }
        return outcome!
    }

    /// Moves `frames` frames (negative goes back) in presentation order while paused, stopping at the first
    /// and last frame. A stopped or ended clip is paused first; a playing one must be paused by the user.
    @discardableResult
    public func step(_ frames: Int = 1) throws(PlaybackError) -> StepOutcome {
        var outcome: StepOutcome?
        _ = try command { machine, media throws(PlaybackError) in
            if machine.state == .playing {
                throw PlaybackError.refusing(.step, of: media.name, in: machine.state)
            }
            let timeline = media.timeline
            let from = timeline.frame(at: machine.currentPosition())
            let wanted = from.addingReportingOverflow(frames)
            let unclamped = wanted.overflow ? (frames < 0 ? Int.min : Int.max) : wanted.partialValue
            let to = min(max(unclamped, 0), timeline.frameCount - 1)
            let clamped: ClampedEnd? = unclamped < 0 ? .start : unclamped > timeline.frameCount - 1 ? .end : nil
            machine.setPosition(timeline.frameTimes[to], state: .paused)
            outcome = StepOutcome(
                requested: frames, moved: to - from, frameIndex: to, frameCount: timeline.frameCount,
                position: timeline.frameTimes[to], clamped: clamped, decodedFrom: timeline.decodedFrom(frame: to))
        }
        return outcome!
    }

    /// The status now, or nil when nothing is loaded. Notices the end of the clip.
    public func status() -> PlaybackStatus? {
        let (status, notify) = machine.withLock { machine -> (PlaybackStatus?, (@Sendable (PlaybackStatus) -> Void)?) in
            let before = machine.state
            guard let current = machine.makeStatus() else { return (nil, nil) }
            return (current, before != machine.state ? machine.observer : nil)
        }
        if let status, let notify { notify(status) }
        return status
    }

    /// The prompt fragment (`▶ 0:12.3/0:45`), or nil when nothing is loaded.
    public func promptFragment(ascii: Bool = false) -> String? {
        status()?.promptFragment(ascii: ascii)
    }

    // MARK: Reports from a player

    /// Takes what an external player says as the truth: its position (re-anchoring the clock), its pause
    /// state, or that it reached the end. Ignored when stopped or ended (only commands leave those), and a
    /// paused position within half a frame of the engine's is taken as agreement (the frame stays exact).
    public func playerReported(position: Double? = nil, paused: Bool? = nil, reachedEnd: Bool = false) {
        change { machine in
            guard let media = machine.media, machine.state == .playing || machine.state == .paused else { return }
            let timeline = media.timeline
            if reachedEnd {
                if machine.state == .playing { machine.setPosition(timeline.duration, state: .ended) }
                return
            }
            let newState = paused.map { $0 ? PlaybackState.paused : .playing } ?? machine.state
            var at = machine.currentPosition()
            if let position, position.isFinite {
                let reported = min(max(position, 0), timeline.duration)
                if !(machine.state == .paused && newState == .paused && abs(reported - at) < timeline.halfFrame) {
                    at = reported
                }
            }
            machine.setPosition(at, state: newState)
        }
    }

    // MARK: Internals

    /// Runs `body` on the loaded media with the machine locked, then tells the observer (outside the lock);
    /// returns the new status.
    private func command(
        _ body: (inout Machine, PlaybackMedia) throws(PlaybackError) -> Void
    ) throws(PlaybackError) -> PlaybackStatus {
        let (status, notify) = try machine.withLock {
            machine throws(PlaybackError) -> (PlaybackStatus, (@Sendable (PlaybackStatus) -> Void)?) in
            guard let media = machine.media else { throw PlaybackError.nothingLoaded }
            _ = machine.makeStatus()  // notice an end reached before this command
            try body(&machine, media)
            return (machine.makeStatus()!, machine.observer)
        }
        notify?(status)
        return status
    }

    /// Runs `body` with the machine locked and tells the observer (outside the lock) of the new status.
    private func change(_ body: (inout Machine) -> Void) {
        let (status, notify) = machine.withLock { machine -> (PlaybackStatus?, (@Sendable (PlaybackStatus) -> Void)?) in
            body(&machine)
            return (machine.makeStatus(), machine.observer)
        }
        if let status, let notify { notify(status) }
    }
}

/// Where a seek aims: the time or frame asked for, clamped into the clip, and the frame shown there.
private struct SeekAim {
    var requested: Double
    var requestedFrame: Int?
    var clamped: ClampedEnd?
    /// The time aimed at, after clamping.
    var time: Double
    /// The frame shown at `time`: the last one whose time is at or before it.
    var frame: Int

    init(_ target: SeekTarget, from position: Double, in timeline: VideoTimeline) throws(PlaybackError) {
        let last = timeline.frameCount - 1
        switch target {
        case .frame(let number):
            requestedFrame = number
            clamped = number < 0 ? .start : number > last ? .end : nil
            frame = min(max(number, 0), last)
            requested = timeline.frameTimes[frame]
            time = requested
            return
        case .absolute(let seconds): requested = seconds
        case .relative(let seconds): requested = position + seconds
        case .percent(let share): requested = timeline.duration * share / 100
        }
        guard requested.isFinite else { throw PlaybackError(.seekTargetNotANumber) }
        clamped = requested < 0 ? .start : requested > timeline.duration ? .end : nil
        time = min(max(requested, 0), timeline.duration)
        frame = timeline.frame(at: time)
    }
}

/// The engine's state, only touched with its lock held.
private struct Machine {
    let clock: any PlaybackClock
    var media: PlaybackMedia?
    var state: PlaybackState = .stopped
    /// The position at `anchorTime`; while playing, the position moves on from there with the clock.
    var anchorPosition = 0.0
    var anchorTime = 0.0
    var lastSeek: SeekOutcome?
    var observer: (@Sendable (PlaybackStatus) -> Void)?

    init(clock: any PlaybackClock) { self.clock = clock }

    mutating func setPosition(_ position: Double, state: PlaybackState) {
        anchorPosition = position
        anchorTime = clock.now
        self.state = state
    }

    /// The position now: the anchor, plus the time since it while playing, never past the end.
    func currentPosition() -> Double {
        guard let media else { return 0 }
        guard state == .playing else { return anchorPosition }
        let elapsed = max(clock.now - anchorTime, 0)
        return min(anchorPosition + elapsed, media.timeline.duration)
    }

    /// The status, after moving to `ended` if the clock ran past the end.
    mutating func makeStatus() -> PlaybackStatus? {
        guard let media else { return nil }
        let timeline = media.timeline
        var position = currentPosition()
        if state == .playing && position >= timeline.duration {
            position = timeline.duration
            setPosition(position, state: .ended)
        }
        let video = media.video
        let frame = timeline.frame(at: position)
        return PlaybackStatus(
            media: media.name, duration: timeline.duration, orientation: video.orientation.rawValue, state: state,
            position: position, frameIndex: frame, frameCount: timeline.frameCount,
            frameTime: timeline.frameTimes[frame], decodedFrom: timeline.decodedFrom(frame: frame),
            framesPerSecond: timeline.framesPerSecond, width: video.displayWidth, height: video.displayHeight,
            rotation: video.rotation, codec: video.codec?.description, lastSeek: lastSeek, player: nil,
            decodeLeadIn: timeline.decodeLeadIn, truncated: timeline.truncationNote)
    }
}
