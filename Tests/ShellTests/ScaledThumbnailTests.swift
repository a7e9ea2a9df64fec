import Foundation
import Imaging
import MediaManager
import TestSupport
import Testing

@testable import Shell

/// A JPEG without an EXIF thumbnail, on a card whose whole files are at hand (`dir:`, `sim:`, `serve`): its
/// thumbnail is the photo itself decoded at a DCT scale and fitted to 160x120, not the generic "JPG" tile
/// that used to be reported as its thumbnail. A large photo costs a 1/8 decode.
@Suite struct ScaledThumbnailTests {
    let card: TemporaryFolder
    let saved: TemporaryFolder
    let interpreter: Interpreter
    let output: CapturedOutput

    init() throws {
        card = try TemporaryFolder("msh-scaled")
        saved = try TemporaryFolder("msh-scaled-out")
        // Left half red, right half blue: no tile looks like that.
        let photo = RGBImage(width: 4000, height: 3000) { x, _ in x < 2000 ? RGB(220, 20, 20) : RGB(20, 20, 220) }
        try card.write("DCIM/100MEDIA/IMG_0001.JPG", try JPEGEncoder.encode(photo))
        (interpreter, output, _) = makeInterpreter()
        try interpreter.open(.folder(path: card.path))
    }

    @Test func aPhotoWithoutAThumbnailIsShownScaledDown() throws {
        #expect(interpreter.run(line: "cd DCIM/100MEDIA; thumb --save \(saved.path) IMG_0001.JPG") == .success, "\(output.errors)")
        #expect(output.lines.last?.hasPrefix("IMG_0001.JPG: thumbnail 160x120, ") == true, "\(output.lines)")
        let bytes = try #require(saved.read("IMG_0001.JPG.thumb.jpg"))
        let thumbnail = try JPEGDecoder.decode(bytes, limits: DecodeLimits(maxBytes: 1 << 20)).image
        #expect(thumbnail.width == 160 && thumbnail.height == 120)
        let left = thumbnail[40, 60]
        let right = thumbnail[120, 60]
        #expect(left.r > 150 && left.b < 80, "the photo's red half: \(left)")
        #expect(right.b > 150 && right.r < 80, "the photo's blue half: \(right)")
    }
}
