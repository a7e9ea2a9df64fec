import Failures
import Foundation
import MediaFormats
import POSIX
import Testing

@testable import Playback

/// The state machine with a clock moved by hand, on the demo clips (landscape: 30 fps, 3.0 s, 90 frames,
/// keyframes at 0, 1 and 2 s).
@Suite("Playback engine")
struct EngineTests {
    let clock = ManualClock(now: 1000)
    let engine: PlaybackEngine

    init() throws {
        engine = PlaybackEngine(clock: clock)
        engine.load(try DemoClips.media("landscape_faststart.mp4"))
    }

    func status() throws -> PlaybackStatus { try #require(engine.status()) }

    func expectPosition(_ expected: Double, _ state: PlaybackState, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let now = try status()
        #expect(now.state == state, sourceLocation: sourceLocation)
        #expect(abs(now.position - expected) < 1e-6, "position \(now.position), expected \(expected)", sourceLocation: sourceLocation)
    }

    @Test func playSeekPauseStepResumeStop() throws {
        try expectPosition(0, .stopped)
        #expect(try status().lastSeek == nil)

        try engine.play()
        try expectPosition(0, .playing)
        clock.advance(by: 0.5)
        try expectPosition(0.5, .playing)
        #expect(try status().frameIndex == 15)

        // A keyframe seek to 2.4 s on a clip with a keyframe every second lands on the keyframe at 2.0 s, and
        // says so.
        let seek = try engine.seek(.absolute(seconds: 2.4), landing: .keyframe)
        #expect(seek.requested == 2.4 && seek.target == 2.4 && seek.clamped == nil)
        #expect(seek.landed == 2.0 && seek.keyframeIndex == 2 && seek.frameIndex == 60)
        #expect(seek.state == .playing)
        #expect(seek.description == "seek 0:02.40: landed on keyframe #2 at 0:02.00 (frame 60)")
        try expectPosition(2.0, .playing)
        clock.advance(by: 0.25)
        try expectPosition(2.25, .playing)

        try engine.pause()
        try expectPosition(2.25, .paused)
        clock.advance(by: 5)
        try expectPosition(2.25, .paused)
        #expect(try status().frameIndex == 67)  // 2.2333 s is on screen at 2.25 s

        var step = try engine.step()
        #expect(step.frameIndex == 68 && step.moved == 1 && step.clamped == nil)
        try expectPosition(68.0 / 30, .paused)
        step = try engine.step(3)
        #expect(step.frameIndex == 71)
        step = try engine.step(-10)
        #expect(step.frameIndex == 61 && step.moved == -10)
        try expectPosition(61.0 / 30, .paused)

        try engine.resume()
        clock.advance(by: 0.5)
        try expectPosition(61.0 / 30 + 0.5, .playing)
        #expect(try status().lastSeek?.landed == 2.0)

        try engine.stop()
        try expectPosition(0, .stopped)
        #expect(try status().lastSeek == nil)
        clock.advance(by: 1)
        try expectPosition(0, .stopped)
    }

    @Test func relativeSeeksMoveFromTheCurrentPosition() throws {
        try engine.play()
        clock.advance(by: 1.5)
        try engine.pause()
        var seek = try engine.seek(.relative(seconds: 0.8))
        #expect(seek.requested == 2.3 && seek.frameIndex == 69 && abs(seek.landed - 2.3) < 1e-9)
        try expectPosition(2.3, .paused)
        seek = try engine.seek(.relative(seconds: -0.6))
        #expect(abs(seek.requested - 1.7) < 1e-9 && seek.frameIndex == 51 && seek.keyframeIndex == 1)
        try expectPosition(1.7, .paused)
        // From where it is, not from the keyframe it was decoded from: a keyframe seek goes back to 1.0 s.
        seek = try engine.seek(.relative(seconds: 0.2), landing: .keyframe)
        #expect(abs(seek.requested - 1.9) < 1e-9 && seek.landed == 1.0 && seek.frameIndex == 30)
        try expectPosition(1.0, .paused)
    }

    @Test func percentSeeksAreShareOfTheDuration() throws {
        var seek = try engine.seek(.percent(50))
        #expect(seek.requested == 1.5 && seek.landed == 1.5 && seek.frameIndex == 45)
        seek = try engine.seek(.percent(100))
        #expect(seek.requested == 3.0 && seek.clamped == nil && seek.frameIndex == 89)
        seek = try engine.seek(.percent(50), landing: .keyframe)
        #expect(seek.landed == 1.0 && seek.frameIndex == 30)
        seek = try engine.seek(.percent(0))
        #expect(seek.landed == 0 && seek.keyframeIndex == 0)
    }

    @Test func positionsOutsideTheClipAreClampedAndReported() throws {
        var seek = try engine.seek(.absolute(seconds: 10))
        #expect(seek.clamped == .end && seek.requested == 10 && seek.target == 3.0 && seek.frameIndex == 89)
        #expect(seek.description.contains("past the end (0:03.0): clamped to 0:03.00; frame 89 of 90 at 0:02.97"))
        seek = try engine.seek(.absolute(seconds: 10), landing: .keyframe)
        #expect(seek.clamped == .end && seek.landed == 2.0)
        try engine.seek(.absolute(seconds: 1.2))
        seek = try engine.seek(.relative(seconds: -5))
        #expect(seek.clamped == .start && abs(seek.requested + 3.8) < 1e-9 && seek.target == 0 && seek.landed == 0)
        #expect(seek.description.contains("before the start"))
        #expect(throws: PlaybackError(.seekTargetNotANumber)) { try engine.seek(.absolute(seconds: .nan)) }
    }

    @Test func stepsStopAtTheFirstAndLastFrame() throws {
        try engine.seek(.absolute(seconds: 0))
        var step = try engine.step(-1)
        #expect(step.clamped == .start && step.moved == 0 && step.frameIndex == 0)
        step = try engine.step(1000)
        #expect(step.clamped == .end && step.moved == 89 && step.frameIndex == 89 && step.frameCount == 90)
        try expectPosition(89.0 / 30, .paused)
        step = try engine.step(.max)
        #expect(step.clamped == .end && step.moved == 0)
        step = try engine.step(.min)
        #expect(step.clamped == .start && step.frameIndex == 0 && step.moved == -89)
        step = try engine.step(0)
        #expect(step.moved == 0 && step.clamped == nil)
    }

    @Test func reachingTheEndEndsPlaybackAndTellsTheObserver() throws {
        let seen = StatusLog()
        engine.setObserver { seen.append($0) }
        try engine.play()
        clock.advance(by: 2.9)
        try expectPosition(2.9, .playing)
        clock.advance(by: 0.6)
        try expectPosition(3.0, .ended)
        #expect(try status().frameIndex == 89)
        #expect(seen.states.suffix(1) == [.ended])
        clock.advance(by: 1)
        try expectPosition(3.0, .ended)

        #expect(throws: PlaybackError.self) { try engine.resume() }
        #expect(throws: PlaybackError.self) { try engine.pause() }
        // Stepping back from the end pauses on the frame before the last.
        let step = try engine.step(-1)
        #expect(step.frameIndex == 88)
        try expectPosition(88.0 / 30, .paused)
        // Play after the end starts over.
        clock.advance(by: 10)
        try engine.resume()
        clock.advance(by: 1)
        try expectPosition(3.0, .ended)
        try engine.play()
        try expectPosition(0, .playing)
    }

    /// Issue 42: frame N (counted from 0, as steps and status count) and the keyframe it is decoded from.
    @Test func aFrameNumberGoesToThatFrame() throws {
        try engine.play()
        clock.advance(by: 0.4)
        var seek = try engine.seek(.frame(75))
        #expect(seek.frameIndex == 75 && seek.requestedFrame == 75 && abs(seek.landed - 2.5) < 1e-9)
        #expect(seek.decodedFrom == DecodedFrom(keyframe: 2, frameIndex: 60, position: 2.0) && seek.state == .playing)
        #expect(seek.description == "frame 75 of 90 at 0:02.50, decoded from keyframe #2 at 0:02.00")
        try engine.pause()
        seek = try engine.seek(.frame(1000))
        #expect(seek.clamped == .end && seek.frameIndex == 89)
        #expect(seek.description == "frame 1000 is past the last frame: frame 89 of 90 at 0:02.97, decoded from keyframe #2 at 0:02.00")
        seek = try engine.seek(.frame(-3))
        #expect(seek.clamped == .start && seek.frameIndex == 0 && seek.description == "frame -3 is before the first frame: frame 0 of 90 at 0:00.00, keyframe #0")
        seek = try engine.seek(.frame(45), landing: .keyframe)
        #expect(seek.frameIndex == 30 && seek.landed == 1.0)
        // step and status say the same frame and keyframe.
        let step = try engine.step(-1)
        #expect(step.frameIndex == 29 && step.decodedFrom == DecodedFrom(keyframe: 0, frameIndex: 0, position: 0))
        let now = try status()
        #expect(now.frameIndex == 29 && now.frameTime == step.position && now.decodedFrom == step.decodedFrom)
        #expect(now.line.contains("  frame 29/90 at 0:00.97, decoded from keyframe #0 at 0:00.00  "))
        #expect(now.line.contains("  last seek frame 45 → keyframe #1 at 0:01.00"))
    }

    @Test func seekingAfterTheEndOrWhileStoppedPauses() throws {
        try engine.play()
        clock.advance(by: 4)
        #expect(try status().state == .ended)
        let seek = try engine.seek(.absolute(seconds: 1.5))
        #expect(seek.state == .paused && seek.landed == 1.5)
        try engine.stop()
        try engine.seek(.absolute(seconds: 2.5), landing: .keyframe)
        try expectPosition(2.0, .paused)
        try engine.stop()
        try engine.seek(.frame(20))
        try expectPosition(20.0 / 30, .paused)
        try engine.stop()
        try engine.step(2)
        try expectPosition(2.0 / 30, .paused)
    }

    @Test func commandsThatDoNotApplySayWhy() throws {
        let pause = #expect(throws: PlaybackError.self) { try engine.pause() }
        #expect(pause?.refusal == PlaybackError.Refusal(operation: .pause, state: .stopped, name: "landscape_faststart.mp4"))
        let resume = #expect(throws: PlaybackError.self) { try engine.resume() }
        #expect(resume?.refusal?.operation == .resume)
        #expect(resume?.refusal?.state == .stopped)
        try engine.play()
        let error = #expect(throws: PlaybackError.self) { try engine.step() }
        #expect(error?.kind == .wrongState)
        #expect(error?.refusal == PlaybackError.Refusal(operation: .step, state: .playing, name: "landscape_faststart.mp4"))
        #expect(error?.failureCategory == .invalidRequest)
        // Repeating a state is harmless.
        try engine.play()
        try engine.pause()
        try engine.pause()
        try engine.resume()
        try engine.resume()
        #expect(try status().state == .playing)

        let empty = PlaybackEngine(clock: clock)
        #expect(empty.status() == nil && empty.promptFragment() == nil)
        for command in [{ try empty.play() }, { try empty.pause() }, { try empty.resume() }, { try empty.stop() }] {
            #expect(throws: PlaybackError.nothingLoaded) { _ = try command() }
        }
        #expect(throws: PlaybackError.nothingLoaded) { try empty.seek(.percent(10)) }
        #expect(throws: PlaybackError.nothingLoaded) { try empty.step() }
    }

    @Test func statusCarriesTheSeedFieldsAndRoundTripsAsJSON() throws {
        try engine.play()
        clock.advance(by: 1.25)
        try engine.pause()
        try engine.seek(.absolute(seconds: 2.4), landing: .keyframe)
        let now = try status()
        #expect(now.media == "landscape_faststart.mp4")
        #expect(now.duration == 3.0 && now.orientation == "landscape" && now.state == .paused && now.position == 2.0)
        #expect(now.frameIndex == 60 && now.frameCount == 90 && now.width == 640 && now.height == 360)
        #expect(now.frameTime == 2.0 && now.decodedFrom == DecodedFrom(keyframe: 2, frameIndex: 60, position: 2.0))
        #expect(now.codec == "avc1" && abs((now.framesPerSecond ?? 0) - 30) < 0.01)
        #expect(now.lastSeek?.keyframeIndex == 2)

        let json = now.json()
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        for key in ["media", "duration", "orientation", "state", "position", "frameIndex", "frameTime", "decodedFrom", "lastSeek"] {
            #expect(object[key] != nil, "\(key) missing from \(json)")
        }
        #expect(object["state"] as? String == "paused")
        #expect((object["lastSeek"] as? [String: Any])?["landed"] as? Double == 2.0)

        #expect(now.line.hasPrefix("landscape_faststart.mp4 ‖ paused 0:02.0/0:03.0  frame 60/90 at 0:02.00, keyframe #2  30 fps  640x360 landscape"))
        #expect(now.line.contains("last seek 0:02.40 → keyframe #2 at 0:02.00"))
        #expect(now.promptFragment() == "‖ 0:02.0/0:03")
        #expect(now.promptFragment(ascii: true) == "|| 0:02.0/0:03")
        try engine.resume()
        clock.advance(by: 0.34)
        #expect(engine.promptFragment() == "▶ 0:02.3/0:03")
    }

    @Test func portraitClipsReportTheirDisplayedShape() throws {
        engine.load(try DemoClips.media("portrait_moovend.mp4"))
        let now = try status()
        #expect(now.orientation == "portrait" && now.width == 360 && now.height == 640 && now.rotation == 90)
        #expect(now.frameCount == 50 && now.duration == 2.0)
        var seek = try engine.seek(.absolute(seconds: 1.96), landing: .keyframe)
        #expect(seek.landed == 1.0 && seek.frameIndex == 25)
        seek = try engine.seek(.absolute(seconds: 1.96))
        #expect(abs(seek.landed - 1.96) < 1e-9 && seek.frameIndex == 49 && seek.keyframeIndex == 1)
    }

    @Test func aPlayersReportsOverrideTheClock() throws {
        try engine.play()
        clock.advance(by: 1)
        engine.playerReported(position: 0.8)
        try expectPosition(0.8, .playing)
        clock.advance(by: 0.1)
        try expectPosition(0.9, .playing)
        // The user paused in the player's window.
        engine.playerReported(position: 0.95, paused: true)
        try expectPosition(0.95, .paused)
        // A paused position within half a frame is agreement: the engine keeps its exact frame time.
        try engine.step(1)
        let exact = try status().position
        engine.playerReported(position: exact - 0.004, paused: true)
        try expectPosition(exact, .paused)
        engine.playerReported(reachedEnd: true)  // only a playing clip ends
        try expectPosition(exact, .paused)
        try engine.resume()
        engine.playerReported(reachedEnd: true)
        try expectPosition(3.0, .ended)
        // Reports never move a stopped or ended clip.
        engine.playerReported(position: 1.0, paused: false)
        try expectPosition(3.0, .ended)
    }

    @Test func statusIsSafeToReadWhileCommandsRun() async throws {
        let engine = self.engine
        let clock = self.clock
        try engine.play()
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for index in 0..<2000 {
                    clock.advance(by: 0.001)
                    _ = try? engine.seek(.percent(Double(index % 100)))
                    if index % 7 == 0 { _ = try? engine.pause() } else { _ = try? engine.resume() }
                    if index % 11 == 0 { _ = try? engine.step(3) }
                }
            }
            for _ in 0..<3 {
                group.addTask {
                    for _ in 0..<2000 {
                        guard let status = engine.status() else { continue }
                        #expect(status.position >= 0 && status.position <= status.duration)
                        #expect(status.frameIndex >= 0 && status.frameIndex < status.frameCount)
                        engine.playerReported(position: status.position)
                    }
                }
            }
        }
    }
}

/// Statuses an observer saw, in order.
final class StatusLog: Sendable {
    private let statuses = Locked<[PlaybackStatus]>([])

    func append(_ status: PlaybackStatus) { statuses.withLock { $0.append(status) } }
    var states: [PlaybackState] { statuses.withLock { $0.map(\.state) } }
}
