import Foundation
import MediaFormats
import MediaManager
import TestSupport
import Testing

@testable import Playback

/// Issue 18: an edit list at a rate other than 1 (a phone's slow motion, a held frame) is refused when the
/// video is loaded, with the facts that name the file, the track and the rate, and nothing is loaded (the
/// words are ShellTests' `ErrorFactsWordsTests`).
@Suite("Edits at a rate other than 1 are refused clearly", .enabled(if: ExternalTool.ffmpeg != nil, "needs ffmpeg"), .tags(.process), .notInFastRun)
struct EditRateRefusalTests {
    @Test(arguments: [UInt32(0x8000), 0, 0x2_0000])
    func playRefusesTheEditAndSaysWhy(rate: UInt32) throws {
        let folder = try TemporaryFolder()
        let path = folder.path + "/SLOWMO.MP4"
        try makeClip(at: path, seconds: 2, size: "64x64")
        try EditListWriter.rewrite(path, movieDuration: 2000, entries: [.init(duration: 2000, mediaTime: 0, rate: rate)])

        let controller = PlaybackController(clock: ManualClock(), player: .none)
        defer { controller.shutdown() }
        do {
            let media = try PlaybackMedia.read(name: "SLOWMO.MP4", from: FileByteSource(path: path))
            try controller.play(media)
            Issue.record("rate \(rate) was played")
        } catch let error as PlaybackError {
            #expect(error.kind == .unsupported)
            #expect(error.cause?.problem == .editRate(track: "track 1", rate: Int32(bitPattern: rate)))
        }
        #expect(controller.status() == nil, "nothing is loaded after the refusal")
    }
}
