extension PixelSize {
    /// The largest size with this aspect ratio that fits in `box`, rounded to whole pixels, at least 1x1.
    /// It can be larger than `self` (fitting scales up as well as down).
    public func fitted(into box: PixelSize) -> PixelSize {
        let bw = max(box.width, 1)
        let bh = max(box.height, 1)
        let w = max(width, 1)
        let h = max(height, 1)
        if bw * h <= bh * w {
            // Width is the limit.
            return PixelSize(width: bw, height: min(max((2 * h * bw + w) / (2 * w), 1), bh))
        }
        return PixelSize(width: min(max((2 * w * bh + h) / (2 * h), 1), bw), height: bh)
    }
}

extension RGBImage {
    /// This picture scaled to fit `box`, keeping its aspect ratio (see `PixelSize.fitted(into:)`).
    public func resized(toFit box: PixelSize) -> RGBImage {
        resized(to: size.fitted(into: box))
    }

    /// This picture scaled to exactly `size` (sides below 1 become 1), each axis on its own: an area average
    /// (box filter) where it shrinks, so every source pixel counts, and bilinear where it grows.
    public func resized(to size: PixelSize) -> RGBImage {
        let target = PixelSize(width: max(size.width, 1), height: max(size.height, 1))
        if target == self.size { return self }
        let columns = Resampling.contributions(from: width, to: target.width)
        let rows = Resampling.contributions(from: height, to: target.height)

        // Horizontal pass into floats (target.width x height), then vertical pass into bytes.
        var middle = [Float](repeating: 0, count: target.width * height * 3)
        pixels.withUnsafeBufferPointer { src in
            middle.withUnsafeMutableBufferPointer { dst in
                for y in 0..<height {
                    let srcRow = y * width * 3
                    let dstRow = y * target.width * 3
                    for x in 0..<target.width {
                        let c = columns[x]
                        var r: Float = 0
                        var g: Float = 0
                        var b: Float = 0
                        for k in 0..<c.weights.count {
                            let i = srcRow + (c.first + k) * 3
                            let w = c.weights[k]
                            r += Float(src[i]) * w
                            g += Float(src[i + 1]) * w
                            b += Float(src[i + 2]) * w
                        }
                        dst[dstRow + x * 3] = r
                        dst[dstRow + x * 3 + 1] = g
                        dst[dstRow + x * 3 + 2] = b
                    }
                }
            }
        }
        var out = [UInt8](repeating: 0, count: target.width * target.height * 3)
        let rowLength = target.width * 3
        middle.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<target.height {
                    let c = rows[y]
                    for i in 0..<rowLength {
                        var sum: Float = 0
                        for k in 0..<c.weights.count {
                            sum += src[(c.first + k) * rowLength + i] * c.weights[k]
                        }
                        dst[y * rowLength + i] = Resampling.byte(sum)
                    }
                }
            }
        }
        return RGBImage(width: target.width, height: target.height, pixels: out)!
    }
}

/// One-dimensional resampling weights shared by both passes of `RGBImage.resized(to:)`.
enum Resampling {
    /// Output sample = sum of `weights[k]` x input sample `first + k`; the weights add up to 1.
    struct Contribution {
        var first: Int
        var weights: [Float]
    }

    static func contributions(from source: Int, to target: Int) -> [Contribution] {
        if source == target {
            return (0..<target).map { Contribution(first: $0, weights: [1]) }
        }
        if target < source {
            // Area average: output i covers source [i * ratio, (i + 1) * ratio).
            let ratio = Double(source) / Double(target)
            return (0..<target).map { i in
                let left = Double(i) * ratio
                let right = min(Double(i + 1) * ratio, Double(source))
                let first = Int(left.rounded(.down))
                let last = min(Int(right.rounded(.up)) - 1, source - 1)
                let weights = (first...last).map { j in
                    Float((min(Double(j + 1), right) - max(Double(j), left)) / ratio)
                }
                return Contribution(first: first, weights: weights)
            }
        }
        // Bilinear between the two nearest source samples, pixel centres aligned.
        let ratio = Double(source) / Double(target)
        return (0..<target).map { i in
            let x = (Double(i) + 0.5) * ratio - 0.5
            if x <= 0 { return Contribution(first: 0, weights: [1]) }
            if x >= Double(source - 1) { return Contribution(first: source - 1, weights: [1]) }
            let x0 = Int(x.rounded(.down))
            let t = Float(x - Double(x0))
            return Contribution(first: x0, weights: [1 - t, t])
        }
    }

    /// Rounds to the nearest byte, halves up, clamped to 0...255.
    @inline(__always) static func byte(_ value: Float) -> UInt8 {
        UInt8(min(max((value + 0.5).rounded(.down), 0), 255))
    }
}
