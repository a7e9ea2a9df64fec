import Connectors
import Foundation
import MediaFormats
import MediaManager
import TestSupport
import Testing

@testable import Playback

/// Issue 27: a slow-motion edit (rate 0.5) lasts as long as its edit says on the movie's timeline, twice the
/// media it shows. `ls -l` and `info` show that presented length (the edit list's total, ISO/IEC 14496-12
/// 8.6.6), not the rate-1 length of its media or of a movie header written as if the rate were 1; `play`
/// still refuses the edit. ffprobe is no oracle here: libavformat ignores an edit's rate.
@Suite("A slow-motion edit shows its presented duration", .enabled(if: ExternalTool.ffmpeg != nil, "needs ffmpeg"), .tags(.process, .port), .notInFastRun)
struct PresentedDurationTests {
    @Test(arguments: [false, true])
    func theListingAndTheContainerSayTheSlowMotionLength(withAudio: Bool) throws {
        let folder = try TemporaryFolder()
        let card = folder.path + "/card"
        try FileManager.default.createDirectory(atPath: card + "/DCIM/100TEST", withIntermediateDirectories: true)
        let path = card + "/DCIM/100TEST/SLOWMO.MP4"
        try makeSlowMotionClip(at: path, scratch: folder.path, withAudio: withAudio)

        let movie = try MovieReader().read(from: FileByteSource(path: path))
        #expect(movie.durationSeconds == 4, "2 s of media at rate 0.5 last 4 s: \(String(describing: movie.durationSeconds))")
        #expect(movie.videoTrack?.presentedDurationSeconds == 4)
        #expect(movie.videoTrack?.frameRate == 30, "the rate it was recorded at")
        #expect(throws: PlaybackError.self) { try PlaybackMedia(name: "SLOWMO.MP4", movie: movie, source: FileByteSource(path: path)) }

        let camera = try LoopbackCamera(folder: card)
        for url in [CameraURL.folder(path: card), camera.url] {
            let session = try MediaSession.open(url)
            defer { session.close() }
            try session.catalog.ensureLoaded()
            let file = try #require(session.catalog.file(atPath: "DCIM/100TEST/SLOWMO.MP4"))
            #expect(file.video?.duration == 4, "\(url): ls -l says \(String(describing: file.video?.duration))")
            #expect(VideoDetails(movie: try session.movieInfo(for: file)).duration == 4, "\(url): info")
        }
    }
}

/// 2 s of 30 fps video (and 2 s of audio), its edit rewritten to show the 2 s at rate 0.5 over 4 s, and the
/// movie header left saying 2 s, as a writer that ignores the rate would.
func makeSlowMotionClip(at path: String, scratch: String, withAudio: Bool) throws {
    let ffmpeg = try #require(ExternalTool.ffmpeg)
    var arguments = ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=64x64:rate=30"]
    if withAudio { arguments += ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000", "-c:a", "aac"] }
    arguments += ["-t", "2", "-c:v", "libx264", "-preset", "ultrafast", "-g", "30", "-pix_fmt", "yuv420p", path]
    try ffmpeg.run(arguments)
    try EditListWriter.rewrite(path, movieDuration: 2000, entries: [.init(duration: 4000, mediaTime: 0, rate: 0x8000)])
}
