/// How a stored picture must be turned to appear upright: the EXIF Orientation tag (values 1–8), named by
/// the transform that displays it correctly.
public enum ImageOrientation: Int, Sendable, Hashable, CaseIterable {
    case identity = 1
    case flipHorizontal = 2
    case rotate180 = 3
    case flipVertical = 4
    /// Mirror across the top-left to bottom-right diagonal.
    case transpose = 5
    case rotate90Clockwise = 6
    /// Mirror across the top-right to bottom-left diagonal.
    case transverse = 7
    case rotate90CounterClockwise = 8

    /// The orientation for an EXIF value; values outside 1–8 (absent, corrupt) mean the picture is shown as stored.
    public init(exifValue: Int) {
        self = ImageOrientation(rawValue: exifValue) ?? .identity
    }

    /// True when width and height trade places (values 5–8).
    public var swapsDimensions: Bool { rawValue >= 5 }

    /// The upright size of a picture stored at `size`.
    public func apply(to size: PixelSize) -> PixelSize {
        swapsDimensions ? PixelSize(width: size.height, height: size.width) : size
    }
}

extension RGBImage {
    /// This picture turned upright according to an EXIF orientation value (1–8; anything else leaves it as is).
    public func oriented(exifValue: Int) -> RGBImage {
        oriented(ImageOrientation(exifValue: exifValue))
    }

    /// This picture with `orientation` applied, so it appears upright.
    public func oriented(_ orientation: ImageOrientation) -> RGBImage {
        if orientation == .identity { return self }
        let w = width
        let h = height
        let outSize = orientation.apply(to: size)
        var out = [UInt8](repeating: 0, count: pixels.count)
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<outSize.height {
                    for x in 0..<outSize.width {
                        // The stored pixel shown at (x, y).
                        let (sx, sy): (Int, Int)
                        switch orientation {
                        case .identity: (sx, sy) = (x, y)
                        case .flipHorizontal: (sx, sy) = (w - 1 - x, y)
                        case .rotate180: (sx, sy) = (w - 1 - x, h - 1 - y)
                        case .flipVertical: (sx, sy) = (x, h - 1 - y)
                        case .transpose: (sx, sy) = (y, x)
                        case .rotate90Clockwise: (sx, sy) = (y, h - 1 - x)
                        case .transverse: (sx, sy) = (w - 1 - y, h - 1 - x)
                        case .rotate90CounterClockwise: (sx, sy) = (w - 1 - y, x)
                        }
                        let s = (sy * w + sx) * 3
                        let d = (y * outSize.width + x) * 3
                        dst[d] = src[s]
                        dst[d + 1] = src[s + 1]
                        dst[d + 2] = src[s + 2]
                    }
                }
            }
        }
        return RGBImage(width: outSize.width, height: outSize.height, pixels: out)!
    }
}
