/// A few pure-Swift drawing primitives, enough for generated pictures such as placeholder thumbnails.
/// Shapes are clipped to the image; coordinates are pixel centres.
extension RGBImage {
    /// Fills the rectangle `x..<x+width`, `y..<y+height`.
    mutating func fillRect(x: Int, y: Int, width: Int, height: Int, _ color: RGB) {
        let x0 = max(x, 0)
        let y0 = max(y, 0)
        let x1 = min(x + width, self.width)
        let y1 = min(y + height, self.height)
        guard x0 < x1, y0 < y1 else { return }
        for row in y0..<y1 {
            for column in x0..<x1 { self[column, row] = color }
        }
    }

    /// Fills rows with a vertical blend from `top` to `bottom`.
    mutating func fillVerticalGradient(top: RGB, bottom: RGB) {
        for row in 0..<height {
            let t = height > 1 ? Double(row) / Double(height - 1) : 0
            fillRect(x: 0, y: row, width: width, height: 1, RGB.blend(top, bottom, t))
        }
    }

    /// Fills the disc of `radius` around (`cx`, `cy`).
    mutating func fillCircle(cx: Double, cy: Double, radius: Double, _ color: RGB) {
        let y0 = max(Int((cy - radius).rounded(.down)), 0)
        let y1 = min(Int((cy + radius).rounded(.up)), height - 1)
        let x0 = max(Int((cx - radius).rounded(.down)), 0)
        let x1 = min(Int((cx + radius).rounded(.up)), width - 1)
        guard x0 <= x1, y0 <= y1 else { return }
        for row in y0...y1 {
            for column in x0...x1 {
                let dx = Double(column) - cx
                let dy = Double(row) - cy
                if dx * dx + dy * dy <= radius * radius { self[column, row] = color }
            }
        }
    }

    /// Fills the triangle with corners `a`, `b`, `c` (any winding).
    mutating func fillTriangle(_ a: (Double, Double), _ b: (Double, Double), _ c: (Double, Double), _ color: RGB) {
        func edge(_ p: (Double, Double), _ q: (Double, Double), _ x: Double, _ y: Double) -> Double {
            (q.0 - p.0) * (y - p.1) - (q.1 - p.1) * (x - p.0)
        }
        let area = edge(a, b, c.0, c.1)
        guard area != 0 else { return }
        let y0 = max(Int(min(a.1, b.1, c.1).rounded(.down)), 0)
        let y1 = min(Int(max(a.1, b.1, c.1).rounded(.up)), height - 1)
        let x0 = max(Int(min(a.0, b.0, c.0).rounded(.down)), 0)
        let x1 = min(Int(max(a.0, b.0, c.0).rounded(.up)), width - 1)
        guard x0 <= x1, y0 <= y1 else { return }
        for row in y0...y1 {
            for column in x0...x1 {
                let x = Double(column)
                let y = Double(row)
                let w0 = edge(b, c, x, y) * area
                let w1 = edge(c, a, x, y) * area
                let w2 = edge(a, b, x, y) * area
                if w0 >= 0, w1 >= 0, w2 >= 0 { self[column, row] = color }
            }
        }
    }

    /// Draws `text` in the built-in 5x7 font, each font pixel `scale` x `scale`, left edge at `x`, top at `y`.
    mutating func drawText(_ text: String, x: Int, y: Int, scale: Int, _ color: RGB) {
        var left = x
        for character in text {
            let rows = BitmapFont.glyph(for: character)
            for (r, bits) in rows.enumerated() {
                for c in 0..<BitmapFont.glyphWidth where bits & (0x10 >> c) != 0 {
                    fillRect(x: left + c * scale, y: y + r * scale, width: scale, height: scale, color)
                }
            }
            left += BitmapFont.advance * scale
        }
    }
}

extension RGB {
    /// The colour `t` of the way from `a` to `b` (0...1).
    static func blend(_ a: RGB, _ b: RGB, _ t: Double) -> RGB {
        func mix(_ p: UInt8, _ q: UInt8) -> UInt8 {
            UInt8((Double(p) + (Double(q) - Double(p)) * t).rounded())
        }
        return RGB(mix(a.r, b.r), mix(a.g, b.g), mix(a.b, b.b))
    }
}
