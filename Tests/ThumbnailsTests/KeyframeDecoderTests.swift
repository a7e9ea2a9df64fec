import Foundation
import MediaFormats
import MediaManager
import POSIX
import TestSupport
import Testing
import Thumbnails
import VirtualCamera

/// The ffmpeg run behind video proxy thumbnails: a real decode, and stand-in programs that hang, exit without
/// reading their input (SIGPIPE must not kill the shell) or write too much.
@Suite struct KeyframeDecoderTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder("msh-ffmpeg")
    }

    /// A stand-in "ffmpeg": a shell script.
    private func program(_ body: String) throws -> KeyframeDecoder {
        let path = try folder.write("ffmpeg", text: "#!/bin/sh\n" + body + "\n")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        return KeyframeDecoder(executable: path)
    }

    @Test(.enabled(if: ffmpegIsInstalled, "needs ffmpeg"))
    func aProxysFirstKeyframeBecomesAnUprightJPEG() throws {
        let decoder = try #require(KeyframeDecoder.find(environment: ProcessInfo.processInfo.environment))
        let bytes = try demoBytes("portrait_proxy_160x90.lrf")
        let track = try #require(try MovieReader().read(from: MemoryByteSource(bytes)).videoTrack)
        let sample = track.sampleTable.samples[try #require(track.sampleTable.keyframeIndices.first)]
        let stream = try AnnexB.stream(
            AnnexB.Configuration(try #require(track.codecConfiguration), codec: .h264),
            sample: Array(bytes[Int(sample.offset)..<Int(sample.offset) + Int(sample.size)]))
        let jpeg = try decoder.jpeg(from: stream, codec: .h264, rotation: track.rotation, cancellation: Cancellation())
        let info = try JPEGReader().read(from: MemoryByteSource(jpeg))
        #expect(track.rotation == 90)
        #expect(info.width == 90 && info.height == 160, "coded 160x90, turned 90 degrees clockwise")
    }

    @Test func aProgramThatExitsWithoutReadingIsAnErrorNotACrash() throws {
        let decoder = try program("exit 3")
        #expect(throws: KeyframeError.noPicture(exitStatus: 3)) {
            try decoder.jpeg(from: [UInt8](repeating: 0x5A, count: 4 << 20), codec: .h264, rotation: 0, cancellation: Cancellation())
        }
    }

    @Test func cancellationAndTheTimeLimitKillIt() throws {
        let cancellation = Cancellation()
        // Not exec'd: the sleep outlives the killed shell for a while and holds what Foundation watches for
        // the end of the process, so the waits after a kill must be bounded.
        let hang = try program("sleep 5; exit 0")
        let started = Date()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) { cancellation.cancel() }
        #expect(throws: CancellationError.self) {
            try hang.jpeg(from: [0, 0, 0, 1, 0x65], codec: .h264, rotation: 0, cancellation: cancellation)
        }
        var slow = hang
        slow.timeout = 0.3
        #expect(throws: KeyframeError.tookTooLong(seconds: 0.3)) {
            try slow.jpeg(from: [0, 0, 0, 1, 0x65], codec: .h264, rotation: 0, cancellation: Cancellation())
        }
        #expect(Date().timeIntervalSince(started) < 10, "killed, not waited for")
    }

    @Test func tooMuchOutputIsRefused() throws {
        var chatty = try program("exec cat /dev/zero")
        chatty.maxOutputBytes = 1 << 20
        #expect(throws: KeyframeError.tooMuchOutput(limit: 1 << 20)) {
            try chatty.jpeg(from: [0, 0, 0, 1, 0x65], codec: .h264, rotation: 0, cancellation: Cancellation())
        }
    }
}
