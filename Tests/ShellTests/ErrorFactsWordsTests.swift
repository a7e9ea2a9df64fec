import Foundation
import MediaFormats
import POSIX
import PTP
import Testing

@testable import Playback
@testable import Shell
import Words

/// Lower layers hand the shell facts (which structure, what was expected and what came); these are the
/// sentences a user reads for them. Only ShellTests read error text.
@Suite struct ErrorFactsWordsTests {
    @Test func malformedDataNamesTheStructureAndWhere() {
        #expect(ErrorWords.sentence(for: PTPError.malformed(Malformation("DeviceInfo", .truncated(field: "u32", offset: 2, total: 5))))
            == "malformed data from device: DeviceInfo truncated u32 at byte 2 of 5")
        let overrun = Malformation("PTP/IP data phase", .overrun(sent: 20, announced: 10), operation: .getObject, peer: "127.0.0.1:15740")
        #expect(ErrorWords.sentence(for: PTPError.malformed(overrun))
            == "malformed data from device: GetObject: 127.0.0.1:15740: PTP/IP data phase (sent 20 bytes after announcing 10)")
    }

    @Test func aBrokenSequenceNamesTheOperationThePeerAndTheNumbers() {
        let violation = ProtocolViolation(
            .wrongTransaction(packet: "a response", found: 5, expected: 0), operation: .getObject, peer: "127.0.0.1:15740")
        #expect(ErrorWords.sentence(for: PTPError.protocolViolation(violation))
            == "protocol error: GetObject: 127.0.0.1:15740 answered transaction 5, expected 0")
        let short = ProtocolViolation(.dataPhaseEnded(received: 5000, expected: 100_000), operation: .getObject, peer: "usb:001,004")
        #expect(ErrorWords.sentence(for: PTPError.protocolViolation(short))
            == "protocol error: GetObject: usb:001,004 ended the data phase after 5000 of 100000 bytes")
    }

    @Test func anEditAtAnotherRateSaysWhatTheRateMeans() {
        for (rate, words) in [
            (Int32(0x8000), "at rate 0.5 (slow motion)"), (0, "at rate 0 (a held frame)"), (0x2_0000, "at rate 2 (fast motion)"),
        ] {
            let error = PlaybackError(.unplayableTimeline(name: "SLOWMO.MP4", cause: MediaFormatError(.editRate(track: "track 1", rate: rate))))
            #expect(ErrorWords.sentence(for: error)
                == "SLOWMO.MP4: track 1 has an edit \(words): only rate 1 (normal speed) is supported")
        }
    }

    /// Playback's errors are facts (the file, the operation and state, the call, the player and what it did);
    /// these are the sentences they were before they were facts.
    @Test func playbackFactsReadAsTheyAlwaysDid() {
        func words(_ reason: PlaybackError.Reason) -> String { ErrorWords.sentence(for: PlaybackError(reason)) }
        func refusal(_ operation: PlaybackError.Refusal.Operation, _ state: PlaybackState) -> String {
            words(.refused(.init(operation: operation, state: state, name: "DJI_0003.MP4")))
        }
        #expect(words(.nothingLoaded) == "no video is loaded: play NAME first")
        #expect(refusal(.pause, .stopped) == "DJI_0003.MP4 is stopped: nothing to pause")
        #expect(refusal(.pause, .ended) == "DJI_0003.MP4 has ended: nothing to pause")
        #expect(refusal(.resume, .stopped) == "DJI_0003.MP4 is stopped: use play to start it")
        #expect(refusal(.resume, .ended) == "DJI_0003.MP4 has ended: seek back, or play to start over")
        #expect(refusal(.step, .playing) == "step works while paused: pause DJI_0003.MP4 first")
        #expect(PlaybackError(.refused(.init(operation: .step, state: .playing, name: "A.MP4"))).description
            == "A.MP4 is playing: steps are taken while paused")
        #expect(words(.seekTargetNotANumber) == "seek needs a number of seconds")
        #expect(words(.noVideoTrack(name: "A.MP4")) == "A.MP4 has no video track")
        #expect(words(.noFrames(name: "A.MP4", why: .cutOffBeforeFirstFrame))
            == "A.MP4 has a video track without frames (the file is cut off before its first frame)")
        #expect(words(.noFrames(name: "A.MP4", why: .editListShowsNone)) == "A.MP4 has a video track without frames (its edit list shows none)")
        #expect(words(.streamEndpoint(SystemError(.bind, on: "127.0.0.1:0", errno: EADDRINUSE)))
            == "cannot open the streaming endpoint: bind 127.0.0.1:0: Address already in use")
        let mpv: [(PlaybackError.PlayerFailure, String)] = [
            (.didNotStart(SystemError(.start, on: "/usr/bin/mpv", errno: ENOENT)), "mpv did not start: start /usr/bin/mpv: No such file or directory"),
            (.exitedAtStart(log: []), "mpv exited at start"),
            (.exitedAtStart(log: ["Error parsing option x", "Exiting... (error)"]), "mpv exited at start: Error parsing option x | Exiting... (error)"),
            (.exitedWhileOpening(log: ["Segmentation fault"]), "mpv exited while opening the video: Segmentation fault"),
            (.exitedWhileOpening(log: []), "mpv exited while opening the video"),
            (.refusedControlSocket, "mpv refused its control socket"),
            (.timedOut(.controlSocket, seconds: 15), "mpv did not open its control socket in 15 s"),
            (.timedOut(.firstFrame, seconds: 15), "mpv did not show the video in 15 s"),
            (.timedOut(.seek, seconds: 10), "mpv did not finish seeking in 10 s"),
            (.couldNotOpenStream(why: "unrecognized file format"), "mpv could not open the stream: unrecognized file format"),
            (.notRunning, "mpv is not running"),
            (.exited, "mpv exited"),
            (.command(.closed), "mpv: the player's connection is closed"),
            (.command(.timedOut(command: "seek")), "mpv: the player did not answer 'seek' in time"),
            (.command(.refused(command: "loadfile", error: "invalid parameter")), "mpv: the player refused 'loadfile': invalid parameter"),
            (.command(.unencodable(command: "loadfile")), "mpv: the player refused 'loadfile': not JSON"),
            (.doesNotAnswer, "mpv does not answer"),
            (.exitedByItself, "exited (window closed?); playback goes on without it"),
        ]
        for (failure, sentence) in mpv {
            #expect(words(.player("mpv", failure)) == sentence)
        }
    }

    /// A player's problem: named once in play's warning, twice in status's line (as before), and in words in
    /// `status --json`.
    @Test func aPlayersProblemIsWordedWhereItIsShown() throws {
        let exited = PlayerReport(name: "mpv", running: false, problem: PlaybackError(.player("mpv", .exitedAtStart(log: ["bye"]))))
        #expect(PlaybackWords.problem(of: exited) == "mpv exited at start: bye")
        let closed = PlayerReport(name: "mpv", running: false, problem: PlaybackError(.player("mpv", .exitedByItself)))
        #expect(PlaybackWords.problem(of: closed) == "mpv: exited (window closed?); playback goes on without it")
        #expect(PlaybackWords.problem(of: PlayerReport(name: "mpv", running: false)) == "mpv: not running")

        let status = PlaybackStatus(
            media: "A.MP4", duration: 3, orientation: "landscape", state: .paused, position: 1, frameIndex: 30,
            frameCount: 90, frameTime: 1, decodedFrom: DecodedFrom(keyframe: 1, frameIndex: 30, position: 1), width: 640,
            height: 360, rotation: 0, player: exited)
        #expect(status.line.hasSuffix("  mpv: mpv exited at start: bye"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(status.json().utf8)) as? [String: Any])
        let player = try #require(json["player"] as? [String: Any])
        #expect(player["problem"] as? String == "mpv exited at start: bye")
        #expect(player["name"] as? String == "mpv" && player["running"] as? Bool == false)
    }

    @Test func aMediaFileThatCannotBeOpenedIsALocalFailure() {
        let error = MediaFormatError(.system(SystemError(.open, path: "/nonexistent/DJI_0001.JPG", errno: ENOENT)))
        #expect(ErrorWords.sentence(for: error)
            == LocalFailureWords.sentence(for: SystemError(.open, path: "/nonexistent/DJI_0001.JPG", errno: ENOENT)))
        #expect(ErrorWords.sentence(for: MediaFormatError(.endsInside("the 'moov' box"), offset: 1234))
            == "the file ends inside the 'moov' box (at byte 1234)")
    }
}
