import Imaging
import Testing

@Suite struct ScalingTests {
    @Test(arguments: [
        (PixelSize(width: 8000, height: 6000), PixelSize(width: 160, height: 160), PixelSize(width: 160, height: 120)),
        (PixelSize(width: 100, height: 50), PixelSize(width: 10, height: 10), PixelSize(width: 10, height: 5)),
        (PixelSize(width: 1, height: 1000), PixelSize(width: 10, height: 10), PixelSize(width: 1, height: 10)),
        (PixelSize(width: 1000, height: 1), PixelSize(width: 10, height: 10), PixelSize(width: 10, height: 1)),
        (PixelSize(width: 3, height: 2), PixelSize(width: 100, height: 100), PixelSize(width: 100, height: 67)),
        (PixelSize(width: 720, height: 1280), PixelSize(width: 80, height: 48), PixelSize(width: 27, height: 48)),
        (PixelSize(width: 4, height: 4), PixelSize(width: 0, height: -3), PixelSize(width: 1, height: 1)),
    ])
    func fitKeepsAspect(source: PixelSize, box: PixelSize, expected: PixelSize) {
        #expect(source.fitted(into: box) == expected)
    }

    @Test func areaAverageHalvesA4x4IntoExactMeans() {
        // Four 2x2 quadrants, each with two colours in a checkerboard.
        let image = RGBImage(width: 4, height: 4) { x, y in
            let even = (x + y) % 2 == 0
            switch (x / 2, y / 2) {
            case (0, 0): return even ? RGB(255, 0, 0) : RGB(0, 0, 0)
            case (1, 0): return even ? RGB(0, 200, 0) : RGB(0, 100, 0)
            case (0, 1): return RGB(10, 20, 30)
            default: return even ? RGB(255, 255, 255) : RGB(0, 0, 1)
            }
        }
        let half = image.resized(to: PixelSize(width: 2, height: 2))
        #expect(half.pixels == [128, 0, 0, 0, 150, 0, 10, 20, 30, 128, 128, 128])
    }

    @Test func areaAverageWeighsPartialPixels() {
        // 3 -> 2: outputs cover [0, 1.5) and [1.5, 3).
        let row = RGBImage(width: 3, height: 1, pixels: [0, 0, 0, 90, 90, 90, 180, 180, 180])!
        #expect(row.resized(to: PixelSize(width: 2, height: 1)).pixels == [30, 30, 30, 150, 150, 150])
        // Down to one pixel: the plain mean.
        #expect(row.resized(to: PixelSize(width: 1, height: 1)).pixels == [90, 90, 90])
    }

    @Test func bilinearUpscaleInterpolatesBetweenCentres() {
        let row = RGBImage(width: 2, height: 1, pixels: [0, 0, 0, 100, 200, 40])!
        let wide = row.resized(to: PixelSize(width: 4, height: 1))
        #expect(wide.pixels == [0, 0, 0, 25, 50, 10, 75, 150, 30, 100, 200, 40])
    }

    @Test func axesScaleIndependently() {
        // Shrink horizontally (average), grow vertically (bilinear).
        let image = RGBImage(width: 2, height: 2, pixels: [0, 0, 0, 100, 100, 100, 200, 200, 200, 100, 100, 100])!
        let out = image.resized(to: PixelSize(width: 1, height: 4))
        #expect(out.pixels == [50, 50, 50, 75, 75, 75, 125, 125, 125, 150, 150, 150])
    }

    @Test func sameSizeIsUnchangedAndFlatStaysFlat() {
        let image = RGBImage(width: 7, height: 5) { x, y in RGB(UInt8(x * 30), UInt8(y * 40), 9) }
        #expect(image.resized(to: image.size) == image)
        let flat = RGBImage(width: 37, height: 23, fill: RGB(12, 200, 77))
        for size in [PixelSize(width: 5, height: 3), PixelSize(width: 100, height: 61), PixelSize(width: 36, height: 24)] {
            #expect(flat.resized(to: size) == RGBImage(width: size.width, height: size.height, fill: RGB(12, 200, 77)))
        }
        #expect(flat.resized(toFit: PixelSize(width: 74, height: 100)).size == PixelSize(width: 74, height: 46))
    }
}

@Suite struct OrientationTests {
    // Stored:  a b c
    //          d e f
    static let a = RGB(1, 0, 0), b = RGB(2, 0, 0), c = RGB(3, 0, 0)
    static let d = RGB(4, 0, 0), e = RGB(5, 0, 0), f = RGB(6, 0, 0)
    static let stored = image([[a, b, c], [d, e, f]])

    static func image(_ rows: [[RGB]]) -> RGBImage {
        RGBImage(width: rows[0].count, height: rows.count) { x, y in rows[y][x] }
    }

    @Test func eachExifValueTurnsThePictureUpright() {
        let (a, b, c, d, e, f) = (Self.a, Self.b, Self.c, Self.d, Self.e, Self.f)
        let expected: [Int: [[RGB]]] = [
            1: [[a, b, c], [d, e, f]],
            2: [[c, b, a], [f, e, d]],
            3: [[f, e, d], [c, b, a]],
            4: [[d, e, f], [a, b, c]],
            5: [[a, d], [b, e], [c, f]],
            6: [[d, a], [e, b], [f, c]],
            7: [[f, c], [e, b], [d, a]],
            8: [[c, f], [b, e], [a, d]],
        ]
        for (value, rows) in expected {
            #expect(Self.stored.oriented(exifValue: value) == Self.image(rows), "orientation \(value)")
            #expect(ImageOrientation(exifValue: value).apply(to: Self.stored.size) == Self.image(rows).size)
        }
    }

    @Test(arguments: [0, 9, -1, 255])
    func unknownValuesLeaveThePictureAsStored(value: Int) {
        #expect(Self.stored.oriented(exifValue: value) == Self.stored)
    }

    @Test func rotationsCompose() {
        let cw = Self.stored.oriented(.rotate90Clockwise)
        #expect(cw.oriented(.rotate90CounterClockwise) == Self.stored)
        #expect(cw.oriented(.rotate90Clockwise) == Self.stored.oriented(.rotate180))
        #expect(Self.stored.oriented(.transpose).oriented(.transpose) == Self.stored)
        #expect(Self.stored.oriented(.transverse) == Self.stored.oriented(.rotate180).oriented(.transpose))
    }
}
