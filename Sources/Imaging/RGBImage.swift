/// A colour as three 8-bit sRGB channels.
public struct RGB: Hashable, Sendable, CustomStringConvertible {
    public var r: UInt8
    public var g: UInt8
    public var b: UInt8

    public init(_ r: UInt8, _ g: UInt8, _ b: UInt8) {
        self.r = r
        self.g = g
        self.b = b
    }

    public static let black = RGB(0, 0, 0)
    public static let white = RGB(255, 255, 255)

    public var description: String { "RGB(\(r), \(g), \(b))" }
}

/// A width and a height in pixels.
public struct PixelSize: Hashable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// The number of pixels, saturating instead of overflowing.
    public var area: Int {
        let (product, overflow) = width.multipliedReportingOverflow(by: height)
        return overflow ? Int.max : product
    }

    public var description: String { "\(width)x\(height)" }
}

/// A decoded picture: `width` x `height` pixels, three bytes (R, G, B) each, rows top to bottom.
public struct RGBImage: Hashable, Sendable {
    public let width: Int
    public let height: Int
    /// Packed RGB bytes, `width * 3` per row, no padding.
    public private(set) var pixels: [UInt8]

    /// Wraps packed RGB bytes; nil unless both sides are at least 1 and `pixels.count == width * height * 3`.
    public init?(width: Int, height: Int, pixels: [UInt8]) {
        guard width > 0, height > 0 else { return nil }
        let (area, o1) = width.multipliedReportingOverflow(by: height)
        let (bytes, o2) = area.multipliedReportingOverflow(by: 3)
        guard !o1, !o2, bytes == pixels.count else { return nil }
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// A `width` x `height` image of one colour; both sides must be at least 1.
    public init(width: Int, height: Int, fill: RGB = .black) {
        precondition(width > 0 && height > 0, "RGBImage needs a positive size, got \(width)x\(height)")
        self.width = width
        self.height = height
        var bytes = [UInt8](repeating: 0, count: width * height * 3)
        if fill != .black {
            for i in stride(from: 0, to: bytes.count, by: 3) {
                bytes[i] = fill.r
                bytes[i + 1] = fill.g
                bytes[i + 2] = fill.b
            }
        }
        self.pixels = bytes
    }

    /// Builds an image from a function of the pixel position (handy for tests and generated pictures).
    public init(width: Int, height: Int, _ color: (_ x: Int, _ y: Int) -> RGB) {
        self.init(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width { self[x, y] = color(x, y) }
        }
    }

    public var size: PixelSize { PixelSize(width: width, height: height) }

    /// The pixel at column `x`, row `y` (both must be in range).
    public subscript(x: Int, y: Int) -> RGB {
        get {
            let i = (y * width + x) * 3
            return RGB(pixels[i], pixels[i + 1], pixels[i + 2])
        }
        set {
            let i = (y * width + x) * 3
            pixels[i] = newValue.r
            pixels[i + 1] = newValue.g
            pixels[i + 2] = newValue.b
        }
    }
}
