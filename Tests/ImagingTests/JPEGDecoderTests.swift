import Foundation
import Imaging
import TestSupport
import Testing

let generous = DecodeLimits(maxBytes: 64 << 20)

@Suite struct JPEGDecoderTests {
    @Test func decodesAnImageMagickJPEGAtFullSize() throws {
        let decoded = try JPEGDecoder.decode(Fixtures.redBlue, limits: generous)
        #expect(decoded.image.size == PixelSize(width: 64, height: 32))
        #expect(decoded.plan.scale == .one)
        #expect(decoded.warning == nil)
        #expect(decoded.image[8, 16].isClose(to: RGB(255, 0, 0), tolerance: 6))
        #expect(decoded.image[56, 16].isClose(to: RGB(0, 0, 255), tolerance: 6))
    }

    @Test func readsTheHeaderWithoutDecoding() throws {
        let header = try JPEGDecoder.readHeader(Fixtures.large)
        #expect(header.width == 2000)
        #expect(header.height == 1500)
        #expect(header.frameMarker == 0xC0)
        #expect(header.components.map(\.horizontalSampling) == [2, 1, 1])
        #expect(!header.buffersWholeImage)
        #expect(header.coefficientBufferBytes == 0)
    }

    @Test func decodesAtTheSmallestScaleThatCoversTheTarget() throws {
        let thumb = try JPEGDecoder.decode(
            Fixtures.large, fitting: PixelSize(width: 160, height: 120), limits: .forTarget(PixelSize(width: 160, height: 120)))
        #expect(thumb.plan.scale == ScalingFactor(1, 8))
        #expect(thumb.image.size == PixelSize(width: 250, height: 188))
        #expect(thumb.image.pixels.count == thumb.plan.outputBytes)

        let medium = try JPEGDecoder.decode(Fixtures.large, fitting: PixelSize(width: 600, height: 600), limits: generous)
        #expect(medium.plan.scale == ScalingFactor(3, 8))  // 750x563 covers 600x450; 1/4 (500x375) would not
        #expect(medium.image.size == PixelSize(width: 750, height: 563))

        let shown = thumb.image.resized(toFit: PixelSize(width: 160, height: 120))
        #expect(shown.size == PixelSize(width: 160, height: 120))
    }

    @Test func decodesTheDemoCardPhoto() throws {
        let jpeg = try Fixtures.demoMedia("photo_landscape.jpg")
        let target = PixelSize(width: 160, height: 90)
        let decoded = try JPEGDecoder.decode(jpeg, fitting: target, limits: .forTarget(target))
        #expect(decoded.plan.scale == ScalingFactor(1, 8))
        #expect(decoded.image.size == PixelSize(width: 160, height: 90))
        #expect(decoded.warning == nil)
        // Not a flat picture: the fractal terrain has plenty of distinct colours.
        #expect(Set(stride(from: 0, to: decoded.image.pixels.count, by: 3).map { decoded.image.pixels[$0] }).count > 20)
    }

    @Test func orientationSixFixtureTurnsPortraitLikeImageMagickAutoOrient() throws {
        let jpeg = try Fixtures.demoMedia("photo_rotated_orientation6.jpg")
        let path = Fixtures.packageRoot.appendingPathComponent("Sources/VirtualCamera/DemoMedia/photo_rotated_orientation6.jpg")
        let upright = try Tools.convert([path.path, "-auto-orient", "-quality", "95"])
        let target = PixelSize(width: 90, height: 160)
        let ours = try JPEGDecoder.decode(jpeg, fitting: ImageOrientation(exifValue: 6).apply(to: target), limits: generous)
            .image.oriented(exifValue: 6)
        let theirs = try JPEGDecoder.decode(upright, fitting: target, limits: generous).image
        #expect(ours.size == PixelSize(width: 90, height: 160))
        #expect(theirs.size == ours.size)
        let diff = zip(ours.pixels, theirs.pixels).map { abs(Int($0) - Int($1)) }
        #expect(diff.reduce(0, +) / diff.count <= 4)
    }

    @Test(arguments: 1...8)
    func orientationMatchesImageMagick(value: Int) throws {
        let operation: [String] = [
            1: [], 2: ["-flop"], 3: ["-rotate", "180"], 4: ["-flip"], 5: ["-transpose"], 6: ["-rotate", "90"],
            7: ["-transverse"], 8: ["-rotate", "270"],
        ][value]!
        let dir = try Tools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = dir.appendingPathComponent("in.png")
        try Tools.run("convert", [
            "-size", "16x16", "(", "xc:#FF0000", "xc:#00FF00", "xc:#0000FF", "+append", ")",
            "(", "xc:#FFFF00", "xc:#FF00FF", "xc:#00FFFF", "+append", ")", "-append", source.path,
        ])
        let theirs = try JPEGDecoder.decode(
            try Tools.convert([source.path] + operation + ["-sampling-factor", "1x1", "-quality", "98"]),
            limits: generous
        ).image
        let ours = try JPEGDecoder.decode(Fixtures.sixBlocks, limits: generous).image.oriented(exifValue: value)
        #expect(ours.size == theirs.size)
        for y in stride(from: 8, to: ours.height, by: 16) {
            for x in stride(from: 8, to: ours.width, by: 16) {
                #expect(ours[x, y].isClose(to: theirs[x, y], tolerance: 12), "block at \(x),\(y)")
            }
        }
    }

    @Test func encoderRoundTripKeepsPixelsClose() throws {
        let image = RGBImage(width: 64, height: 48) { x, y in RGB(UInt8(x * 4), UInt8(y * 5), UInt8((x + y) * 2)) }
        let jpeg = try JPEGEncoder.encode(image, quality: 95, subsampling: .yuv444)
        #expect(try Tools.identify(jpeg) == "JPEG 64x48")
        let back = try JPEGDecoder.decode(jpeg, limits: generous)
        #expect(back.image.size == image.size)
        #expect(back.warning == nil)
        let diff = zip(image.pixels, back.image.pixels).map { abs(Int($0) - Int($1)) }
        #expect(diff.max()! <= 8)
        #expect(Double(diff.reduce(0, +)) / Double(diff.count) < 1.5)

        // Lower quality is smaller; grayscale keeps only luma.
        let small = try JPEGEncoder.encode(image, quality: 20)
        #expect(small.count < jpeg.count)
        let gray = try JPEGDecoder.decode(try JPEGEncoder.encode(image, subsampling: .grayscale), limits: generous).image
        #expect(gray[10, 10].r == gray[10, 10].g && gray[10, 10].g == gray[10, 10].b)
    }

    @Test func progressiveFilesCountTheirCoefficientBuffer() throws {
        let header = try JPEGDecoder.readHeader(Fixtures.progressive)
        #expect(header.isProgressive)
        #expect(header.buffersWholeImage)
        // Y: 8x6 blocks; Cb, Cr: 4x3 blocks each; 128 bytes a block.
        #expect(header.coefficientBufferBytes == (48 + 12 + 12) * 128)
        let decoded = try JPEGDecoder.decode(Fixtures.progressive, limits: generous)
        #expect(decoded.image.size == PixelSize(width: 64, height: 48))
        #expect(decoded.plan.coefficientBytes == 9216)
        #expect(decoded.image[2, 2].isClose(to: RGB(0x10, 0x20, 0x30), tolerance: 12))
    }
}
