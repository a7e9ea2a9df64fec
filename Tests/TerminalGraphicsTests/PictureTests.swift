import Foundation
import Imaging
import TestSupport
import Testing

@testable import TerminalGraphics

@Suite struct PictureTests {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func demo(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: packageRoot.appendingPathComponent("Sources/VirtualCamera/DemoMedia/\(name)")))
    }

    @Test func cellsKeepAspectAtTwoToOne() {
        let renderer = TerminalImageRenderer(method: .halfBlocks(.trueColor))
        #expect(renderer.cells(for: PixelSize(width: 160, height: 120), columns: 20, maxRows: 8) == (20, 8))
        #expect(renderer.cells(for: PixelSize(width: 120, height: 160), columns: 20, maxRows: 8) == (12, 8))
        #expect(renderer.cells(for: PixelSize(width: 1280, height: 720), columns: 80, maxRows: 40) == (80, 23))
        #expect(renderer.cells(for: PixelSize(width: 10, height: 10), columns: 0, maxRows: 0) == (1, 1))
    }

    @Test func demoPhotoAsHalfBlocksIsTheAskedWidth() throws {
        let renderer = TerminalImageRenderer(method: .halfBlocks(.trueColor))
        let picture = try TerminalPicture.decode(
            jpeg: try Self.demo("photo_landscape.jpg"), fitting: renderer.pixelBox(columns: 40, maxRows: 20))
        #expect(picture.warning == nil)
        let rendered = try #require(renderer.render(picture, columns: 40, maxRows: 20))
        #expect(rendered.columns == 40)
        #expect(rendered.rows == 12)  // 1280x720 in 40x40 pixels: 40x23, 12 rows
        guard case .lines(let lines) = rendered.body else { Issue.record("not lines"); return }
        #expect(lines.count == 12)
        for line in lines {
            #expect(line.filter { $0 == "▀" }.count == 40)
            #expect(line.hasSuffix("\(esc)[0m"))
        }
    }

    @Test func orientedPictureIsUprightAndDropsTheStoredJPEG() throws {
        let box = PixelSize(width: 90, height: 160)
        let jpeg = try Self.demo("photo_rotated_orientation6.jpg")
        let picture = try TerminalPicture.decode(jpeg: jpeg, orientation: 6, fitting: box)
        #expect(picture.image.width < picture.image.height)
        #expect(picture.jpeg == nil)
        let upright = try TerminalPicture.decode(jpeg: try Self.demo("photo_portrait.jpg"), fitting: box)
        #expect(upright.jpeg != nil)
    }

    @Test func iTermSendsTheOriginalJPEGOrReencodes() throws {
        let jpeg = try Self.demo("photo_landscape.jpg")
        let renderer = TerminalImageRenderer(method: .iTerm)
        let picture = try TerminalPicture.decode(jpeg: jpeg, fitting: renderer.pixelBox(columns: 20, maxRows: 8))
        let rendered = try #require(renderer.render(picture, columns: 20, maxRows: 8))
        #expect(rendered.columns == 20 && rendered.rows == 6)
        guard case .escape(let escape) = rendered.body else { Issue.record("not an escape"); return }
        #expect(escape == ITermRenderer.render(jpeg: jpeg, columns: 20, rows: 6))

        // Without the original (e.g. after rotation) the pixels are encoded as a JPEG.
        let bare = try #require(renderer.render(TerminalPicture(image: picture.image), columns: 20, maxRows: 8))
        guard case .escape(let reencoded) = bare.body else { Issue.record("not an escape"); return }
        let base64 = reencoded.split(separator: ":", maxSplits: 1)[1].dropLast()
        let bytes = try #require(Data(base64Encoded: String(base64)))
        #expect(Array(bytes.prefix(2)) == [0xFF, 0xD8])
        #expect(reencoded.hasPrefix("\(esc)]1337;File=inline=1;size=\(bytes.count);width=20;height=6;preserveAspectRatio=1:"))
    }

    @Test func kittyReducesLargePicturesToTheCellPixels() throws {
        let renderer = TerminalImageRenderer(method: .kitty)
        let big = TerminalPicture(image: RGBImage(width: 1280, height: 720, fill: RGB(9, 9, 9)))
        let rendered = try #require(renderer.render(big, columns: 20, maxRows: 8))
        #expect(rendered.columns == 20 && rendered.rows == 6)
        guard case .escape(let escape) = rendered.body else { Issue.record("not an escape"); return }
        #expect(escape.hasPrefix("\(esc)_Ga=T,f=24,s=200,v=113,c=20,r=6,C=1,q=2,m=1;"))
        #expect(renderer.render(big, columns: 20, maxRows: 8) == rendered)
        #expect(TerminalImageRenderer(method: .text).render(big, columns: 20, maxRows: 8) == nil)
    }

    @Test func placeholderThumbnailsDrawLikeAnyOtherJPEG() throws {
        let sheet = ContactSheet(method: .halfBlocks(.trueColor), terminalColumns: 80)
        let items = try PlaceholderThumbnail.Kind.allCases.map { kind in
            ContactSheet.Item(
                name: "\(kind).jpg",
                picture: try TerminalPicture.decode(
                    jpeg: PlaceholderThumbnail.make(kind: kind, label: "MP4"), fitting: sheet.pixelBox))
        }
        let output = sheet.render(items)
        if let path = ProcessInfo.processInfo.environment["SHEET_DUMP"] {
            let photo = try TerminalPicture.decode(jpeg: try Self.demo("photo_landscape.jpg"), fitting: PixelSize(width: 60, height: 40))
            let beside = BesideLayout.render(
                TerminalImageRenderer(method: .halfBlocks(.trueColor)).render(photo, columns: 60, maxRows: 20),
                lines: ["Name: DJI_0001.JPG", "Size: 79 KB"], terminalColumns: 100)
            try (output + beside).write(toFile: path, atomically: true, encoding: .utf8)
        }
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 8 + 1 + 1)  // 8 picture rows, the names, the final newline
        #expect(lines[8] == "     video.jpg             photo.jpg             other.jpg")
        #expect(lines[0].filter { $0 == "▀" }.count == 60)
    }
}
