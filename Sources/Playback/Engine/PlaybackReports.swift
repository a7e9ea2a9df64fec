import Foundation

/// Which end a requested position was pulled back to.
public enum ClampedEnd: String, Sendable, Codable {
    case start
    case end
}

/// What a seek did: the time asked for, whether it was clamped into the clip, and the keyframe it landed on
/// (seeks land on the nearest preceding keyframe, where decoding can start).
public struct SeekOutcome: Sendable, Codable, Equatable, CustomStringConvertible {
    /// The absolute time the request meant, before clamping (a relative or percent seek resolved).
    public var requested: Double
    /// Set when `requested` was before zero or past the end and was clamped to that end.
    public var clamped: ClampedEnd?
    /// The time the seek aimed at after clamping.
    public var target: Double
    /// The keyframe's time, where playback now is.
    public var landed: Double
    /// Which shown keyframe, counting from 0 in presentation order; nil when the seek landed on the first
    /// frame because no shown keyframe is that early (the player decodes it from a hidden keyframe).
    public var keyframeIndex: Int?
    /// The keyframe's frame number (0-based, presentation order).
    public var frameIndex: Int
    /// The clip's length, for messages.
    public var duration: Double
    /// The state after the seek.
    public var state: PlaybackState

    /// `seek 0:02.4: landed on keyframe #2 at 0:02.0 (frame 60)`, with the clamping said first when it happened.
    public var description: String {
        var text = "seek \(TimeText.format(requested))"
        switch clamped {
        case .start: text += " is before the start: clamped to \(TimeText.format(target));"
        case .end: text += " is past the end (\(TimeText.format(duration))): clamped to \(TimeText.format(target));"
        case nil: text += ":"
        }
        guard let keyframeIndex else {
            return text + " landed on the first frame at \(TimeText.format(landed)) (no keyframe is shown before it)"
        }
        return text + " landed on keyframe #\(keyframeIndex) at \(TimeText.format(landed)) (frame \(frameIndex))"
    }
}

/// What `step N` did: how far it asked to go, where it got to, and whether it stopped at an end.
public struct StepOutcome: Sendable, Codable, Equatable, CustomStringConvertible {
    /// The frames asked for (negative steps back).
    public var requested: Int
    /// The frames actually moved (less than asked at the first or last frame).
    public var moved: Int
    /// The frame number now shown (0-based, presentation order).
    public var frameIndex: Int
    /// The number of frames in the clip.
    public var frameCount: Int
    /// The frame's time.
    public var position: Double
    /// Set when the step stopped at the first or last frame.
    public var clamped: ClampedEnd?

    /// `step 3: frame 63 of 90 at 0:02.1`, or `step 5: moved 2, stopped at the last frame: frame 89 ...`.
    public var description: String {
        var text = "step \(requested):"
        if let clamped {
            text += " moved \(moved), stopped at the \(clamped == .start ? "first" : "last") frame:"
        }
        return text + " frame \(frameIndex) of \(frameCount) at \(TimeText.format(position))"
    }
}

/// The external player's side of the status: which player, whether it still runs, and where it says it is.
/// Encoded for `status --json` with the problem in words; never decoded (the words do not give the facts back).
public struct PlayerReport: Sendable, Encodable, Equatable {
    /// "mpv".
    public var name: String
    /// False once the player exited (closed by the user, or crashed); playback goes on without it.
    public var running: Bool
    /// The position the player itself reported (its `time-pos`), when it answered.
    public var position: Double?
    /// The loopback address the player reads the file from.
    public var streamURL: String?
    /// What went wrong with the player, when something did (it did not start, stopped answering, exited).
    public var problem: PlaybackError?

    public init(name: String, running: Bool, position: Double? = nil, streamURL: String? = nil, problem: PlaybackError? = nil) {
        self.name = name
        self.running = running
        self.position = position
        self.streamURL = streamURL
        self.problem = problem
    }

    private enum CodingKeys: String, CodingKey { case name, running, position, streamURL, problem }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(running, forKey: .running)
        try container.encodeIfPresent(position, forKey: .position)
        try container.encodeIfPresent(streamURL, forKey: .streamURL)
        try container.encodeIfPresent(problem?.description, forKey: .problem)
    }
}

/// Everything `status` shows, for the one-line text form and for `status --json`: the seed's playback state
/// (media, duration, orientation, state, position) plus frame, rate, size and the last seek's keyframe.
public struct PlaybackStatus: Sendable, Encodable, Equatable {
    /// The media's name.
    public var media: String
    /// Length in seconds.
    public var duration: Double
    /// "landscape", "portrait" or "square", as displayed (after the track's rotation).
    public var orientation: String
    public var state: PlaybackState
    /// Seconds from the start.
    public var position: Double
    /// The frame shown at `position` (0-based, presentation order).
    public var frameIndex: Int
    public var frameCount: Int
    /// Average frames per second.
    public var framesPerSecond: Double?
    /// Displayed width and height in pixels (after rotation).
    public var width: Int
    public var height: Int
    /// Clockwise rotation applied for display.
    public var rotation: Int
    /// The codec ("avc1", "hvc1").
    public var codec: String?
    /// The last seek since the media was loaded or stopped, with the keyframe it landed on.
    public var lastSeek: SeekOutcome?
    /// The external player, when one was started.
    public var player: PlayerReport?
    /// Set when the first frame decodes from a hidden keyframe before the start.
    public var decodeLeadIn: DecodeLeadIn?
    /// Set when the file is cut short, with where it stops playing.
    public var truncated: TruncationNote?

    /// One line: `DJI_0003.MP4 ‖ paused 0:02.0/0:03.0 frame 60/90 30 fps 640x360 landscape, last seek ...`.
    public var line: String {
        var parts = [
            "\(media) \(state.symbol()) \(state.rawValue) \(TimeText.format(position))/\(TimeText.format(duration))",
            "frame \(frameIndex)/\(frameCount)",
        ]
        if let framesPerSecond { parts.append("\(Self.rate(framesPerSecond)) fps") }
        parts.append("\(width)x\(height) \(orientation)")
        if let lastSeek {
            let landing = lastSeek.keyframeIndex.map { "keyframe #\($0)" } ?? "first frame"
            parts.append("last seek \(TimeText.format(lastSeek.requested)) → \(landing) at \(TimeText.format(lastSeek.landed))")
        }
        if let player {
            if player.running {
                parts.append("in \(player.name)" + (player.position.map { " at \(TimeText.format($0))" } ?? ""))
            } else {
                parts.append("\(player.name): \(player.problem?.description ?? "not running")")
            }
        }
        return parts.joined(separator: "  ")
    }

    /// For the prompt while a video is loaded: `▶ 0:12.3/0:45` (ASCII `> 0:12.3/0:45` when asked).
    public func promptFragment(ascii: Bool = false) -> String {
        "\(state.symbol(ascii: ascii)) \(TimeText.format(position))/\(TimeText.format(duration, tenths: false))"
    }

    /// The status as JSON (sorted keys; pretty-printed on request) for `status --json`.
    public func json(pretty: Bool = false) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        guard let data = try? encoder.encode(self) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    /// `30`, `29.97`, `25`.
    static func rate(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}
