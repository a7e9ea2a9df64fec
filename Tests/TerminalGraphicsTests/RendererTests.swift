import Foundation
import Imaging
import TestSupport
import Testing

@testable import TerminalGraphics

let esc = "\u{1B}"
let red = RGB(255, 0, 0), green = RGB(0, 255, 0), blue = RGB(0, 0, 255)
let white = RGB(255, 255, 255), black = RGB(0, 0, 0)

func image(_ rows: [[RGB]]) -> RGBImage {
    RGBImage(width: rows[0].count, height: rows.count) { x, y in rows[y][x] }
}

/// 4x4:  R R G G / B B W W / K K K K / R G B W
let fourByFour = image([
    [red, red, green, green],
    [blue, blue, white, white],
    [black, black, black, black],
    [red, green, blue, white],
])

@Suite struct HalfBlockRendererTests {
    @Test func trueColorFourByFourIsExact() {
        let lines = HalfBlockRenderer.render(fourByFour, depth: .trueColor)
        #expect(lines == [
            "\(esc)[38;2;255;0;0;48;2;0;0;255m▀▀\(esc)[38;2;0;255;0;48;2;255;255;255m▀▀\(esc)[0m",
            "\(esc)[38;2;0;0;0;48;2;255;0;0m▀\(esc)[48;2;0;255;0m▀\(esc)[48;2;0;0;255m▀\(esc)[48;2;255;255;255m▀\(esc)[0m",
        ])
    }

    @Test func palette256FourByFourIsExact() {
        let lines = HalfBlockRenderer.render(fourByFour, depth: .palette256)
        #expect(lines == [
            "\(esc)[38;5;196;48;5;21m▀▀\(esc)[38;5;46;48;5;231m▀▀\(esc)[0m",
            "\(esc)[38;5;16;48;5;196m▀\(esc)[48;5;46m▀\(esc)[48;5;21m▀\(esc)[48;5;231m▀\(esc)[0m",
        ])
    }

    @Test func oddHeightLeavesTheLastBackgroundDefault() {
        let lines = HalfBlockRenderer.render(image([[red, blue], [green, green], [white, black]]), depth: .trueColor)
        #expect(lines == [
            "\(esc)[38;2;255;0;0;48;2;0;255;0m▀\(esc)[38;2;0;0;255m▀\(esc)[0m",
            "\(esc)[38;2;255;255;255m▀\(esc)[38;2;0;0;0m▀\(esc)[0m",
        ])
    }

    @Test(arguments: [
        (RGB(0, 0, 0), 16), (RGB(255, 255, 255), 231), (RGB(255, 0, 0), 196), (RGB(0, 255, 0), 46),
        (RGB(0, 0, 255), 21), (RGB(128, 128, 128), 244), (RGB(95, 135, 175), 67), (RGB(8, 8, 8), 232),
        (RGB(238, 238, 238), 255), (RGB(250, 250, 250), 231), (RGB(100, 100, 100), 241), (RGB(18, 18, 18), 233),
        (RGB(12, 200, 40), 40), (RGB(255, 128, 0), 208),
    ] as [(RGB, UInt8)])
    func palette256PicksTheNearestEntry(color: RGB, index: UInt8) {
        #expect(Palette256.index(for: color) == index)
    }

    @Test func paletteColoursRoundTrip() {
        for index in UInt8(16)...255 {
            #expect(Palette256.index(for: Palette256.color(at: index)) == index)
        }
    }
}

@Suite struct KittyRendererTests {
    /// Splits kitty output into (control keys, payload) per escape, checking the framing.
    static func chunks(_ output: String) -> [(String, String)] {
        var parts = output.components(separatedBy: "\(esc)\\")
        #expect(parts.removeLast() == "")
        return parts.map { part in
            #expect(part.hasPrefix("\(esc)_G"))
            let body = part.dropFirst(3)
            let semicolon = body.firstIndex(of: ";")!
            return (String(body[..<semicolon]), String(body[body.index(after: semicolon)...]))
        }
    }

    @Test func onePixelIsOneExactEscape() {
        #expect(
            KittyRenderer.render(image([[red]]), columns: 2, rows: 1)
                == "\(esc)_Ga=T,f=24,s=1,v=1,c=2,r=1,C=1,q=2,m=0;/wAA\(esc)\\")
    }

    @Test(arguments: [(32, 32, 1), (40, 40, 2), (33, 32, 2), (100, 50, 5)])
    func chunksAreAtMost4096WithMoreFlags(width: Int, height: Int, expectedChunks: Int) throws {
        let picture = RGBImage(width: width, height: height) { x, y in RGB(UInt8(x), UInt8(y), UInt8((x * y) & 255)) }
        let chunks = Self.chunks(KittyRenderer.render(picture, columns: 10, rows: 5))
        #expect(chunks.count == expectedChunks)
        #expect(chunks[0].0 == "a=T,f=24,s=\(width),v=\(height),c=10,r=5,C=1,q=2,m=\(expectedChunks > 1 ? 1 : 0)")
        for (i, chunk) in chunks.enumerated().dropFirst() {
            #expect(chunk.0 == "m=\(i == chunks.count - 1 ? 0 : 1),q=2")
        }
        for chunk in chunks.dropLast() { #expect(chunk.1.count == 4096) }
        #expect(chunks.last!.1.count <= 4096)
        let payload = try #require(Data(base64Encoded: chunks.map(\.1).joined()))
        #expect(Array(payload) == picture.pixels)
    }
}

@Suite struct ITermRendererTests {
    @Test func framingIsExact() {
        #expect(
            ITermRenderer.render(jpeg: [1, 2, 3], columns: 5, rows: 2)
                == "\(esc)]1337;File=inline=1;size=3;width=5;height=2;preserveAspectRatio=1:AQID\u{7}")
    }

    @Test func base64MatchesFoundation() {
        var rng = SeededRandom(test: "base64")
        for length in 0...70 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &rng) }
            #expect(Base64.encode(bytes) == Data(bytes).base64EncodedString(), "\(rng)")
        }
    }
}
