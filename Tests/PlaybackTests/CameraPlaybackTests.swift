import Connectors
import Foundation
import MediaFormats
import MediaManager
import PTPIP
import TestSupport
import Testing
import VirtualCamera

@testable import Playback

/// A virtual camera serving a card folder over PTP/IP on 127.0.0.1 (a port chosen at run time).
final class LoopbackCamera: @unchecked Sendable {
    let server: PTPIPServer

    init(folder: String) throws {
        let camera = VirtualCamera(card: try Card(folder: folder))
        server = PTPIPServer(host: "127.0.0.1", port: 0) { connection, peer in
            camera.serve(connection, peer: peer.address)
        }
        try server.start()
    }

    deinit { server.stop() }

    var url: CameraURL { .ptpip(host: "127.0.0.1", port: server.port, eventPort: server.port) }
}

/// A card with one clip made by ffmpeg: 20 s of 1280x720 at about 8 Mbit/s (about 20 MB), a keyframe each
/// second, moov at the end as a camera writes it.
final class CameraClip: @unchecked Sendable {
    let folder: TemporaryFolder
    let localPath: String
    let cardPath = "DCIM/100MEDIA/DJI_0001.MP4"

    init(seconds: Int = 20, size: String = "1280x720", bitrate: String = "8M") throws {
        folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.path + "/DCIM/100MEDIA", withIntermediateDirectories: true)
        localPath = folder.path + "/" + cardPath
        try makeClip(at: localPath, seconds: seconds, size: size, bitrate: bitrate)
    }
}

@Suite("Playing from a camera over PTP/IP", .enabled(if: ExternalTool.ffmpeg != nil, "needs ffmpeg to make the clip"), .tags(.process, .port), .notInFastRun)
struct CameraPlaybackTests {
    @Test func playbackReadsASmallFractionOfTheFileThroughGetPartialObject() throws {
        let clip = try CameraClip()
        let camera = try LoopbackCamera(folder: clip.folder.path)
        let session = try MediaSession.open(camera.url)
        defer { session.close() }
        try session.catalog.ensureLoaded()
        let file = try #require(session.catalog.file(atPath: clip.cardPath))

        let media = try session.playbackMedia(for: file)
        let source = try #require(media.source as? CameraByteSource)
        let metadata = source.bytesRead
        #expect(media.movie.isFastStart == false)
        #expect(media.timeline.frameCount == 600 && media.timeline.keyframeFrames.count == 20)

        let reference = [UInt8](try Data(contentsOf: URL(fileURLWithPath: clip.localPath)))
        let log = PlayerLog()
        let controller = PlaybackController(clock: ManualClock(), player: PlayerLauncher {
            let player = RangeReadingPlayer(media: media, reference: reference)
            log.append(player)
            return player
        })
        defer { controller.shutdown() }
        try controller.play(media)
        try controller.pause()
        #expect(try controller.seek(.absolute(seconds: 10.4), landing: .keyframe).landed == 10.0)
        #expect(try controller.step(5).frameIndex == 305)
        // An exact seek reads from the keyframe before (at 12 s) to the frame.
        #expect(try controller.seek(.absolute(seconds: 12.5)).frameIndex == 375)
        #expect(try controller.seek(.percent(75)).landed == 15.0)
        let status = try #require(controller.status())
        #expect(status.position == 15.0 && status.frameIndex == 450)
        try controller.stop()

        let player = try #require(log.players.first)
        #expect(player.mismatches == 0, "the endpoint served bytes that differ from the file")
        let total = source.bytesRead
        let share = Double(total) / Double(file.size)
        print("""
            camera playback: file \(file.size) B; movie box read \(metadata) B; after play, seek --key 10.4, step 5, \
            seek 12.5, seek 75%: \(total) B through GetPartialObject in \(source.readCount) reads (\(String(format: "%.1f", share * 100))%)
            """)
        #expect(share < 0.05, "read \(total) of \(file.size) bytes")
    }
}
