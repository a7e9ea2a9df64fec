import Foundation
import Imaging
import MediaFormats
import MediaManager
import TestSupport
import Testing
import Thumbnails
import VirtualCamera

@testable import Shell
@testable import TerminalKit

/// Thumbnails drawn by the interpreter: contact-sheet layout at a given width, text when pictures are off or
/// output is a pipe, --save, hostile thumbnails, Ctrl-C in a long sheet, `info` beside its picture, and the
/// fallbacks for videos whose camera gives no thumbnail.
@Suite struct ThumbnailTests {
    let interpreter: Interpreter
    let output: CapturedOutput
    let interrupt: ScriptedInterrupt

    init() {
        (interpreter, output, interrupt) = makeInterpreter()
        interpreter.environment = ["TERM": "xterm-256color", "COLORTERM": "truecolor", "PATH": "/usr/bin:/bin"]
    }

    private func run(_ line: String) -> LineStatus { interpreter.run(line: line) }

    private func openDemo(columns: Int?) throws {
        try interpreter.open(.simulator(path: nil))
        output.columns = columns
        #expect(run("cd DCIM/100MEDIA") == .success)
        output.reset()
    }

    /// The rows of a drawn sheet: picture lines and the name line under them, escapes stripped.
    private var plainLines: [String] {
        strippingEscapes(output.standardOutput).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    @Test func thumbDrawsThreeToARowOnEightyColumnsFillingTheWidth() throws {
        try openDemo(columns: 80)
        #expect(run("thumb DJI_0001.JPG DJI_0002.JPG DJI_0003.MP4 DJI_0004.JPG") == .success, "\(output.errors)")
        #expect(output.errors.isEmpty)
        #expect(output.standardOutput.contains("\u{1B}[38;2;") && output.standardOutput.contains("\u{1B}[48;2;"))
        let lines = plainLines.dropLast()  // the text ends with a newline
        let names = lines.enumerated().filter { halfBlocks($0.element) == 0 }
        // Three tiles of at least 24 columns fit in 80; widened to fill it, 2 apart: 25 each.
        let tile = (80 - 2 * 2) / 3
        #expect(names.map(\.element) == [
            nameRow(["DJI_0001.JPG", "DJI_0002.JPG", "DJI_0003.MP4"], tile: tile), nameRow(["DJI_0004.JPG"], tile: tile),
        ])
        // 160x120 and 160x90 thumbnails in 25-column tiles: 25x19 and 25x14 pixels, 10 and 7 rows.
        #expect(names.first?.offset == 10, "the first row is as tall as its tallest picture")
        #expect(halfBlocks(lines[0]) == tile * 3)
        #expect(halfBlocks(lines[9]) == tile * 2, "the 16:9 picture ends earlier")
        // DJI_0004.JPG is stored landscape with EXIF orientation 6: drawn upright, so taller than wide.
        let portrait = lines[11..<21]
        #expect(portrait.count == 10 && portrait.allSatisfy { halfBlocks($0) == 15 }, "\(portrait.map { halfBlocks($0) })")
        #expect(lines.allSatisfy { TerminalWidth.of($0) <= 80 })
    }

    /// One picture alone takes the terminal's width, as high as the terminal allows (a line for its name and
    /// one for the prompt); `--size` and `--width` choose instead.
    @Test func oneThumbnailFillsTheTerminalAndSizeChooses() throws {
        try openDemo(columns: 120)
        output.rows = 30
        #expect(run("thumb DJI_0001.JPG") == .success, "\(output.errors)")
        // 160x120 in at most 120 columns and 28 rows: the height limits it, 56 pixels high, 75 wide.
        var widths = plainLines.map { halfBlocks($0) }.filter { $0 > 0 }
        #expect(widths.count == 28 && widths.allSatisfy { $0 == 75 }, "\(widths)")
        output.rows = 100
        output.reset()
        #expect(run("thumb DJI_0001.JPG") == .success)
        widths = plainLines.map { halfBlocks($0) }.filter { $0 > 0 }
        #expect(widths.count == 45 && widths.allSatisfy { $0 == 120 }, "the width limits it: \(widths.count) rows")
        output.reset()
        #expect(run("thumb --size 40x10 DJI_0001.JPG DJI_0002.JPG") == .success)
        widths = plainLines.map { halfBlocks($0) }.filter { $0 > 0 }
        // 160x120 in 40x10 cells (40x20 pixels): 27x20, twice side by side.
        #expect(widths.count == 10 && widths.allSatisfy { $0 == 27 + 27 }, "\(widths)")
        output.reset()
        #expect(run("thumb --width 30 DJI_0001.JPG") == .success)
        widths = plainLines.map { halfBlocks($0) }.filter { $0 > 0 }
        #expect(widths.first == 30 && widths.count == 12, "\(widths)")
        for wrong in ["thumb --size 40 DJI_0001.JPG", "thumb --size 0x5 DJI_0001.JPG", "thumb --width x DJI_0001.JPG",
            "thumb --size 4x4 --width 4 DJI_0001.JPG", "thumb --save /tmp --size 4x4 DJI_0001.JPG"] {
            #expect(run(wrong) == .failure, "\(wrong)")
        }
        #expect(output.errors.first == "error: thumb: --size 40: give COLSxROWS in cells, such as 60x20 (1 to 1000 each)")
    }

    @Test func lsThumbsIsAContactSheetOfThePhotosAndVideos() throws {
        try openDemo(columns: 100)
        #expect(run("set images blocks; ls --thumbs") == .success, "\(output.errors)")
        let names = plainLines.filter { !$0.isEmpty && halfBlocks($0) == 0 }
        // 18-column tiles, 2 apart: five to a row in 100 columns; sidecars (.SRT, .LRF) are left out.
        #expect(names == [
            nameRow(["DJI_0001.JPG", "DJI_0002.JPG", "DJI_0003.MP4", "DJI_0004.JPG", "DJI_0005.MP4"], tile: 18),
            nameRow(["DJI_0006.MOV"], tile: 18),
        ])
        #expect(plainLines.allSatisfy { TerminalWidth.of($0) <= 100 })
        #expect(run("ls --thumbs --json") == .failure)
        #expect(run("cd /; ls --thumbs") == .success)
        #expect(output.lines.last == "no photos or videos to draw")
    }

    @Test func textOnlyWhenPicturesAreOffOrOutputIsAPipe() throws {
        try openDemo(columns: nil)
        #expect(run("thumb DJI_0001.JPG DJI_0003.MP4; ls --thumbs DJI_000[45]*") == .success, "\(output.errors)")
        #expect(!output.standardOutput.contains("\u{1B}"))
        #expect(output.lines.count == 4)
        #expect(output.lines[0].hasPrefix("DJI_0001.JPG: thumbnail 160x120, "))
        #expect(output.lines[1].hasPrefix("DJI_0003.MP4: thumbnail 160x90, "))
        #expect(output.lines[3].hasPrefix("DJI_0005.MP4: thumbnail 90x160, "))

        output.reset()
        output.columns = 80
        #expect(run("set images off; thumb DJI_0001.JPG; info DJI_0001.JPG") == .success)
        #expect(!output.standardOutput.contains("\u{1B}"))
        #expect(output.lines.first?.hasPrefix("DJI_0001.JPG: thumbnail 160x120, ") == true)
        #expect(output.lines.dropFirst().first == "name:        DJI_0001.JPG")
    }

    @Test func forcedProtocolsWriteTheirEscapes() throws {
        try openDemo(columns: 80)
        #expect(run("set images kitty; thumb DJI_0001.JPG DJI_0002.JPG") == .success, "\(output.errors)")
        #expect(output.standardOutput.contains("\u{1B}_Ga=T,f=24,"))
        // Two tiles fill 80 columns, 2 apart.
        #expect(strippingEscapes(output.standardOutput).hasSuffix(nameRow(["DJI_0001.JPG", "DJI_0002.JPG"], tile: 39) + "\n"))
        output.reset()
        #expect(run("set images iterm; thumb DJI_0001.JPG") == .success)
        #expect(output.standardOutput.contains("\u{1B}]1337;File=inline=1;"))
    }

    /// A picture drawn with a graphics protocol is sized in the terminal's own cells when it says their size:
    /// the same 22 rows hold a 4:3 picture 59 cells wide in cells twice as high as wide (the assumption) and
    /// 30 in square ones.
    @Test func protocolPicturesAreSizedByTheTerminalsCells() throws {
        try openDemo(columns: 80)
        output.rows = 24
        #expect(run("set images kitty; thumb DJI_0001.JPG") == .success, "\(output.errors)")
        #expect(output.standardOutput.contains(",c=59,r=22,"), "\(output.standardOutput.prefix(80).debugDescription)")
        output.cellPixels = (width: 10, height: 10)
        output.reset()
        #expect(run("thumb DJI_0001.JPG") == .success)
        #expect(output.standardOutput.contains(",c=30,r=22,"), "\(output.standardOutput.prefix(80).debugDescription)")
    }

    /// The cell size comes from the window size the terminal reports (its pixel fields); none reported, none.
    @Test func theCellSizeIsReadFromTheTerminal() throws {
        var primary: Int32 = -1
        var secondary: Int32 = -1
        var size = winsize(ws_row: 40, ws_col: 100, ws_xpixel: 900, ws_ypixel: 720)
        #expect(openpty(&primary, &secondary, nil, nil, &size) == 0)
        defer { close(primary); close(secondary) }
        let cell = Terminal.cellPixels(of: secondary)
        #expect(cell?.width == 9 && cell?.height == 18)
        size = winsize(ws_row: 40, ws_col: 100, ws_xpixel: 0, ws_ypixel: 0)
        #expect(ioctl(secondary, UInt(TIOCSWINSZ), &size) == 0)
        #expect(Terminal.cellPixels(of: secondary) == nil)
    }

    @Test func infoDrawsThePictureBesideTheDetails() throws {
        try openDemo(columns: 100)
        #expect(run("set images blocks; info DJI_0001.JPG") == .success, "\(output.errors)")
        let lines = plainLines.filter { !$0.isEmpty }
        #expect(lines.count == 11, "\(lines)")
        #expect(lines[0].hasPrefix(String(repeating: "\u{2580}", count: 28) + "  name:        DJI_0001.JPG"))
        #expect(lines.contains { $0.hasSuffix("  dimensions:  1280x720") })
        #expect(lines.allSatisfy { halfBlocks($0) == 28 })
    }

    @Test func saveWritesValidJPEGsAndOverwritesOnlyWithForce() throws {
        try openDemo(columns: 80)
        let folder = try TemporaryFolder("msh-thumbs")
        #expect(run("thumb --save \(folder.path) DJI_0001.JPG DJI_0005.MP4") == .success, "\(output.errors)")
        #expect(!output.standardOutput.contains("\u{1B}"), "--save writes files instead of drawing")
        #expect(output.lines.map { $0.hasSuffix(".thumb.jpg") } == [true, true])
        for (name, size) in [("DJI_0001.JPG", PixelSize(width: 160, height: 120)), ("DJI_0005.MP4", PixelSize(width: 90, height: 160))] {
            let bytes = try #require(folder.read(name + ".thumb.jpg"))
            let decoded = try JPEGDecoder.decode(bytes, fitting: size, limits: .forTarget(size))
            #expect(decoded.image.size == size && decoded.warning == nil)
        }
        let before = folder.read("DJI_0001.JPG.thumb.jpg")
        try folder.write("DJI_0001.JPG.thumb.jpg", text: "mine")
        #expect(run("thumb --save \(folder.path) DJI_0001.JPG") == .failure)
        #expect(output.errors.last?.hasSuffix("DJI_0001.JPG.thumb.jpg exists (use --force to overwrite)") == true)
        #expect(folder.read("DJI_0001.JPG.thumb.jpg") == Array("mine".utf8))
        #expect(run("thumb --force --save \(folder.path) DJI_0001.JPG") == .success)
        #expect(folder.read("DJI_0001.JPG.thumb.jpg") == before)
    }

    @Test func aHostileThumbnailIsOneErrorLineAndTheOthersAreDrawn() throws {
        let card = try TemporaryFolder("msh-hostile")
        try card.write("DCIM/100MEDIA/A_GOOD.JPG", try demoBytes("photo_landscape.jpg"))
        // The EXIF thumbnail's frame header claims 60000x60000 pixels.
        try card.write("DCIM/100MEDIA/B_HUGE.JPG", try photoWithDamagedThumbnail { thumbnail in
            let start = thumbnail.startIndex
            guard let sof = (start..<thumbnail.endIndex - 1).first(where: { thumbnail[$0] == 0xFF && thumbnail[$0 + 1] == 0xC0 })
            else { return }
            for offset in [5, 6, 7, 8] { thumbnail[sof + offset] = offset % 2 == 1 ? 0xEA : 0x60 }
        })
        // Everything after the thumbnail's start-of-image marker is noise.
        try card.write("DCIM/100MEDIA/C_NOISE.JPG", try photoWithDamagedThumbnail { thumbnail in
            for index in thumbnail.indices.dropFirst(2) { thumbnail[index] = UInt8(truncatingIfNeeded: index &* 31) }
        })
        try card.write("DCIM/100MEDIA/D_GOOD.JPG", try demoBytes("photo_portrait.jpg"))
        try interpreter.open(.folder(path: card.path))
        output.columns = 120
        #expect(run("cd DCIM/100MEDIA; set images blocks") == .success)
        output.reset()

        #expect(run("thumb *.JPG") == .failure, "a thumbnail that cannot be shown fails the command")
        #expect(output.errors.count == 2, "\(output.errors)")
        #expect(output.errors.allSatisfy { !$0.contains("\n") })
        #expect(output.errors.first?.hasPrefix("error: thumb: B_HUGE.JPG: the thumbnail cannot be shown: ") == true)
        #expect(output.errors.last?.hasPrefix("error: thumb: C_NOISE.JPG: the thumbnail cannot be shown: ") == true)
        let lines = plainLines
        // Four tiles fill 120 columns, 2 apart: 28 each.
        #expect(lines.contains(nameRow(["A_GOOD.JPG", "B_HUGE.JPG", "C_NOISE.JPG", "D_GOOD.JPG"], tile: 28)))
        #expect(lines.first.map(halfBlocks) == 28 + 28, "both good (landscape) thumbnails drawn, each the tile's width")
        #expect(lines.first?.contains("unreadable") == true)
        #expect(run("pwd") == .success, "the shell goes on")
    }

    @Test func ctrlCStopsALongContactSheetCleanly() throws {
        let card = try TemporaryFolder("msh-many")
        for index in 1...300 {
            try card.write(String(format: "DCIM/100MEDIA/IMG_%04d.JPG", index), patternBytes(400, seed: UInt64(index)))
        }
        try interpreter.open(.folder(path: card.path))
        output.columns = 80
        #expect(run("cd DCIM/100MEDIA; set images blocks") == .success)
        output.reset()

        interrupt.arm(afterPolls: 40)
        #expect(run("ls --thumbs") == .interrupted)
        interrupt.arm(afterPolls: nil)
        interrupt.clear()
        #expect(output.errors.last == "ls: interrupted")
        let text = output.standardOutput
        #expect(text.isEmpty || text.hasSuffix("\n"), "whole rows only")
        let lines = text.split(separator: "\n")
        #expect(lines.allSatisfy { !$0.contains("\u{1B}") || $0.hasSuffix("\u{1B}[0m") }, "no half-drawn escape")
        let rows = lines.filter { $0.contains("IMG_") }.count
        #expect(rows >= 1, "the sheet started drawing before the last thumbnail came")
        #expect(rows < 300 / 4, "and stopped long before the end")

        let queue = try #require(interpreter.media?.thumbnails)
        #expect(queue.pending.isEmpty, "nothing left queued")
        #expect(queue.waitUntilIdle(timeout: 10))
        output.reset()
        #expect(run("ls --thumbs IMG_000[1-4].JPG") == .success, "\(output.errors)")
        #expect(plainLines.contains(nameRow(["IMG_0001.JPG", "IMG_0002.JPG", "IMG_0003.JPG", "IMG_0004.JPG"], tile: 18)))
    }
}

/// A camera that answers no GetThumb: videos show their .THM sidecar or their .LRF proxy's first frame
/// (ffmpeg), photos their EXIF thumbnail, and a video with none of those says so.
@Suite struct VideoThumbnailFallbackTests {
    let card: TemporaryFolder
    let interpreter: Interpreter
    let output: CapturedOutput
    let transport: NoThumbnailTransport

    init() throws {
        card = try TemporaryFolder("msh-videos")
        let folder = "DCIM/100MEDIA/"
        try card.write(folder + "DJI_0001.JPG", try demoBytes("photo_rotated_orientation6.jpg"))
        try card.write(folder + "DJI_0003.MP4", try demoBytes("landscape_faststart.mp4"))
        // The proxy with 8 MB of padding after it: only its movie box and first keyframe may be read.
        let padding = 8 << 20
        let free = [UInt8]([UInt8(padding >> 24), UInt8(padding >> 16 & 0xFF), 0, 0]) + Array("free".utf8)
        try card.write(folder + "DJI_0003.LRF", try demoBytes("landscape_proxy_160x90.lrf") + free + [UInt8](repeating: 0, count: padding - 8))
        try card.write(folder + "DJI_0005.MP4", try demoBytes("portrait_moovend.mp4"))
        try card.write(folder + "DJI_0005.LRF", try demoBytes("portrait_proxy_160x90.lrf"))
        try card.write(folder + "DJI_0007.MP4", try demoBytes("clip.mov"))
        try card.write(folder + "DJI_0007.THM", try demoBytes("clip.thumb.jpg"))
        try card.write(folder + "DJI_0008.MP4", patternBytes(5_000, seed: 8))
        let session: MediaSession
        (session, transport) = try sessionWithoutThumbnails(folder: card.path)
        (interpreter, output, _) = makeInterpreter()
        interpreter.environment = ["TERM": "xterm-256color", "COLORTERM": "truecolor", "PATH": "/usr/bin:/bin"]
        interpreter.attach(session)
        #expect(interpreter.run(line: "cd DCIM/100MEDIA") == .success)
    }

    @Test(.enabled(if: ffmpegIsInstalled, "needs ffmpeg"))
    func videosShowTheirSidecarOrTheirProxysFirstFrame() throws {
        #expect(interpreter.run(line: "thumb DJI_0001.JPG DJI_000[3578].MP4") == .success, "\(output.errors)")
        let lines = output.lines
        #expect(lines.count == 5, "\(lines)")
        #expect(lines[0].hasPrefix("DJI_0001.JPG: thumbnail 160x120 (EXIF), "))
        #expect(lines[1].hasPrefix("DJI_0003.MP4: thumbnail 160x90 (first frame of DJI_0003.LRF), "))
        #expect(lines[2].hasPrefix("DJI_0005.MP4: thumbnail 90x160 (first frame of DJI_0005.LRF), "), "turned upright")
        #expect(lines[3].hasPrefix("DJI_0007.MP4: thumbnail 160x90 (DJI_0007.THM), "))
        #expect(lines[4] == "DJI_0008.MP4: no thumbnail (the camera has none, and there is no .THM or .LRF beside it)")

        transport.resetCounts()
        #expect(interpreter.run(line: "thumb DJI_0003.MP4") == .success)
        #expect(transport.getObjectRequests == 0)
        #expect(transport.fileBytesReceived < 256 << 10, "read \(transport.fileBytesReceived) bytes of an 8 MB proxy")

        output.reset()
        output.columns = 120
        #expect(interpreter.run(line: "set images blocks; thumb DJI_000[3578].MP4") == .success, "\(output.errors)")
        #expect(output.errors == ["DJI_0008.MP4: no thumbnail (the camera has none, and there is no .THM or .LRF beside it)"])
        let plain = strippingEscapes(output.standardOutput)
        #expect(plain.contains("no thumbnail"))
        // Four tiles fill 120 columns, 2 apart: 28 each.
        #expect(plain.contains(nameRow(["DJI_0003.MP4", "DJI_0005.MP4", "DJI_0007.MP4", "DJI_0008.MP4"], tile: 28)))
        let widths = Set(plain.split(separator: "\n").map { halfBlocks($0) })
        #expect(widths.contains(28 + 13 + 28), "16:9, 9:16 and 16:9 pictures side by side: \(widths)")
    }

    @Test func withoutFFmpegTheProxyIsNotDecoded() throws {
        interpreter.environment["PATH"] = "/nonexistent"
        #expect(interpreter.run(line: "thumb DJI_0003.MP4 DJI_0007.MP4") == .success, "\(output.errors)")
        #expect(output.lines.first == "DJI_0003.MP4: no thumbnail (the camera has none, and decoding the .LRF proxy needs ffmpeg)")
        #expect(output.lines.last?.hasPrefix("DJI_0007.MP4: thumbnail 160x90 (DJI_0007.THM), ") == true)
    }
}
