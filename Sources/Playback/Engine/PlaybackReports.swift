import MediaFormats
import Foundation

/// Which end a requested position was pulled back to.
public enum ClampedEnd: String, Sendable, Codable {
    case start
    case end
}

/// What a seek did: the time (or frame) asked for, whether it was clamped into the clip, the frame it landed
/// on and the keyframe that frame is decoded from.
public struct SeekOutcome: Sendable, Codable, Equatable, CustomStringConvertible {
    /// The absolute time the request meant, before clamping (a relative or percent seek resolved; for a
    /// frame number, that frame's time, or the nearest end's when there is no such frame).
    public var requested: Double
    /// The frame number asked for (`seek --frame N`, `frame N`), before clamping; nil for a time.
    public var requestedFrame: Int?
    /// Set when the time or frame asked for was before the start or past the end and was clamped to it.
    public var clamped: ClampedEnd?
    /// The time the seek aimed at after clamping.
    public var target: Double
    /// The frame shown at `target`, or the keyframe before it.
    public var landing: SeekLanding
    /// The time of the frame it landed on, where playback now is.
    public var landed: Double
    /// The frame it landed on (0-based, presentation order).
    public var frameIndex: Int
    /// The number of frames in the clip, for messages.
    public var frameCount: Int
    /// The keyframe the frame is decoded from (the frame itself after a keyframe seek).
    public var decodedFrom: DecodedFrom
    /// Which shown keyframe that is, counting from 0 (`decodedFrom.keyframe`, kept beside it for scripts that
    /// read `lastSeek.keyframeIndex`); nil when it is a hidden keyframe before the start.
    public var keyframeIndex: Int?
    /// The clip's length, for messages.
    public var duration: Double
    /// The state after the seek.
    public var state: PlaybackState

    /// `seek 0:25.50: frame 637 of 1500 at 0:25.48, decoded from keyframe #2 at 0:20.00`;
    /// `frame 637 of 1500 ...` for a frame number; `seek 0:02.40: landed on keyframe #2 at 0:02.00 (frame
    /// 60)` for a keyframe seek; the clamping said first when it happened.
    public var description: String {
        var text: String
        if let requestedFrame {
            switch clamped {
            case .start: text = "frame \(requestedFrame) is before the first frame: "
            case .end: text = "frame \(requestedFrame) is past the last frame: "
            case nil: text = ""
            }
        } else {
            text = "seek \(TimeText.frameTime(requested))"
            switch clamped {
            case .start: text += " is before the start: clamped to \(TimeText.frameTime(target)); "
            case .end: text += " is past the end (\(TimeText.format(duration))): clamped to \(TimeText.frameTime(target)); "
            case nil: text += ": "
            }
        }
        guard landing == .keyframe else {
            return text + "frame \(frameIndex) of \(frameCount) at \(TimeText.frameTime(landed)), \(decodedFrom.phrase(for: frameIndex))"
        }
        guard let keyframeIndex else {
            return text + "landed on the first frame at \(TimeText.frameTime(landed)) (no keyframe is shown before it)"
        }
        return text + "landed on keyframe #\(keyframeIndex) at \(TimeText.frameTime(landed)) (frame \(frameIndex))"
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
    /// The keyframe the frame is decoded from.
    public var decodedFrom: DecodedFrom

    /// `step 3: frame 63 of 90 at 0:02.10, decoded from keyframe #2 at 0:02.00`, or `step 5: moved 2,
    /// stopped at the last frame: frame 89 ...`.
    public var description: String {
        var text = "step \(requested):"
        if let clamped {
            text += " moved \(moved), stopped at the \(clamped == .start ? "first" : "last") frame:"
        }
        return text + " frame \(frameIndex) of \(frameCount) at \(TimeText.frameTime(position)), \(decodedFrom.phrase(for: frameIndex))"
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
    /// The time of the frame shown (`position` itself while paused, after a seek or a step).
    public var frameTime: Double
    /// The keyframe the frame shown is decoded from.
    public var decodedFrom: DecodedFrom
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
    /// What a drone clip's `.SRT` says at `position` (set by the shell, which reads the sidecar), nil without.
    public var telemetry: TelemetryCue?

    /// One line: `DJI_0006.MP4 ‖ paused 0:25.5/1:00.0  frame 637/1500 at 0:25.48, decoded from keyframe #2 at
    /// 0:20.00  25 fps  320x240 landscape  last seek 0:25.50 → frame 637 ...`.
    public var line: String {
        var parts = [
            "\(media) \(state.symbol()) \(state.rawValue) \(TimeText.format(position))/\(TimeText.format(duration))",
            "frame \(frameIndex)/\(frameCount) at \(TimeText.frameTime(frameTime)), \(decodedFrom.phrase(for: frameIndex))",
        ]
        if let framesPerSecond { parts.append("\(Self.rate(framesPerSecond)) fps") }
        parts.append("\(width)x\(height) \(orientation)")
        if let lastSeek {
            let asked = lastSeek.requestedFrame.map { "frame \($0)" } ?? TimeText.frameTime(lastSeek.requested)
            let landing: String
            switch (lastSeek.landing, lastSeek.keyframeIndex) {
            case (.frame, _): landing = "frame \(lastSeek.frameIndex)"
            case (.keyframe, let keyframe?): landing = "keyframe #\(keyframe) at \(TimeText.frameTime(lastSeek.landed))"
            case (.keyframe, nil): landing = "first frame"
            }
            parts.append("last seek \(asked)" + (asked == landing ? "" : " → \(landing)"))
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
