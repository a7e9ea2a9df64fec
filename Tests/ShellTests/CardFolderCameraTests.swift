import Foundation
import Imaging
import TestSupport
import Testing

/// A card folder (`dir:`) as a user meets it through the binary: what it says it is and can do, its
/// videos' pictures, and thumbnails saved upright.
@Suite(.enabled(if: ShellBinary.exists, "needs the built binary"), .tags(.process), .notInFastRun) struct CardFolderCameraTests {
    let card: TemporaryFolder
    let work: TemporaryFolder

    init() throws {
        card = try TemporaryFolder("msh-cardfolder")
        work = try TemporaryFolder("msh-cardfolder-work")
        try card.write("DCIM/100MEDIA/DJI_0001.JPG", try demoBytes("photo_rotated_orientation6.jpg"))
        try card.write("DCIM/100MEDIA/DJI_0003.MP4", patternBytes(5_000, seed: 3))
        try card.write("DCIM/100MEDIA/DJI_0003.LRF", try demoBytes("landscape_proxy_160x90.lrf"))
        try card.write("DCIM/100MEDIA/DJI_0005.MP4", try demoBytes("landscape_faststart.mp4"))
        try card.write("DCIM/100MEDIA/DJI_0008.MP4", patternBytes(5_000, seed: 8))
    }

    func run(_ commands: String, path: String = "/usr/bin:/bin") throws -> ShellBinary.Result {
        try ShellBinary.run(
            ["--camera", "dir:" + card.path, "-c", commands], directory: work.path, environment: ["PATH": path])
    }

    @Test func aCardFolderSaysWhatItIsAndOffersNoCapture() throws {
        let result = try run("summary")
        #expect(result.status == 0, "\(result.standardError)")
        let text = result.standardOutput
        #expect(text.contains("mediashell card folder"), "\(text)")
        #expect(!text.contains("Virtual Camera") && !text.contains("MSH0"), "\(text)")
        // Its serial number is the card's identity (for its import ledger), a hash that names no path.
        let serial = try #require(result.outputLines.first { $0.hasPrefix("serial:") }, "\(text)")
        #expect(serial.range(of: #"^serial: +DIR-[0-9a-f]{12}$"#, options: .regularExpression) != nil, "\(serial)")
        let can = try #require(result.outputLines.first { $0.hasPrefix("can:") })
        #expect(!can.contains("capture") && !can.contains("upload"), "\(can)")
        let capture = try run("capture")
        #expect(capture.status == 1)
        #expect(capture.errorLines.last?.hasSuffix("capture: not supported by this camera") == true, "\(capture.errorLines)")
    }

    @Test(.enabled(if: ffmpegIsInstalled, "needs ffmpeg"))
    func videosShowAFrameOfTheirProxyOrOfThemselvesBeforeATile() throws {
        let result = try run("cd DCIM/100MEDIA; thumb DJI_0003.MP4 DJI_0005.MP4 DJI_0008.MP4")
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.outputLines
        #expect(lines.count == 3, "\(lines)")
        // The camera's own answer now (no "(first frame of ...)" note): the proxy's frame, 16:9.
        #expect(lines.first?.hasPrefix("DJI_0003.MP4: thumbnail 160x90, ") == true, "\(lines)")
        // No proxy: the video's own first keyframe, not the 160x120 generated tile.
        #expect(lines.dropFirst().first?.hasPrefix("DJI_0005.MP4: thumbnail 320x180, ") == true, "\(lines)")
        // Not a movie at all: the tile.
        #expect(lines.last?.hasPrefix("DJI_0008.MP4: thumbnail 160x120, ") == true, "\(lines)")
    }

    @Test func withoutFFmpegAVideoGetsTheTile() throws {
        let result = try run("cd DCIM/100MEDIA; thumb DJI_0003.MP4", path: "/nonexistent")
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.outputLines.first?.hasPrefix("DJI_0003.MP4: thumbnail 160x120, ") == true, "\(result.outputLines)")
    }

    @Test func savedThumbnailsAreUpright() throws {
        let result = try run("cd DCIM/100MEDIA; thumb --save \(work.path) DJI_0001.JPG")
        #expect(result.status == 0, "\(result.standardError)")
        let saved = try #require(work.read("DJI_0001.JPG.thumb.jpg"))
        let header = try JPEGDecoder.readHeader(saved)
        // The photo is stored landscape with orientation 6 (turn 90° clockwise): upright it is portrait.
        #expect(header.height > header.width, "\(header.width)x\(header.height)")
    }
}
