/// Generated thumbnails for files that have none of their own (videos without a .THM or proxy, unknown files):
/// a dark tile with a glyph for the kind of file and an optional label along the bottom.
public enum PlaceholderThumbnail {
    /// Which glyph to draw.
    public enum Kind: Sendable, Hashable, CaseIterable {
        /// A play triangle in a disc, under a film-strip edge.
        case video
        /// Mountains under a sun.
        case photo
        /// A page with a folded corner.
        case other
    }

    /// Accepted side lengths; sizes outside are clamped.
    public static let sideRange = 8...2048

    /// A baseline JPEG of exactly `width` x `height` (clamped to `sideRange`) showing `kind`, with `label`
    /// (e.g. "MOV" or a file name; characters outside the built-in font are drawn as `?`) along the bottom.
    public static func make(kind: Kind, width: Int = 160, height: Int = 120, label: String? = nil) -> [UInt8] {
        let picture = image(kind: kind, width: width, height: height, label: label)
        do {
            return try JPEGEncoder.encode(picture, quality: 85, subsampling: .yuv420)
        } catch {
            // Unreachable short of running out of memory: the picture is valid and within JPEG limits.
            preconditionFailure("encoding a placeholder thumbnail failed: \(error)")
        }
    }

    /// The same picture as `make`, not yet encoded.
    public static func image(kind: Kind, width: Int = 160, height: Int = 120, label: String? = nil) -> RGBImage {
        let w = min(max(width, sideRange.lowerBound), sideRange.upperBound)
        let h = min(max(height, sideRange.lowerBound), sideRange.upperBound)
        var picture = RGBImage(width: w, height: h)
        let textScale = max(1, min(w / 80, h / 60))
        let text = label.map { $0.filter { !$0.isNewline } } ?? ""
        let band = text.isEmpty ? 0 : BitmapFont.glyphHeight * textScale + 4 * textScale
        let area = (w: Double(w), h: Double(h - band))

        switch kind {
        case .video:
            picture.fillVerticalGradient(top: RGB(0x2B, 0x2F, 0x36), bottom: RGB(0x16, 0x18, 0x1C))
            let strip = max(2, h / 10)
            picture.fillRect(x: 0, y: 0, width: w, height: strip, RGB(0x0C, 0x0D, 0x10))
            let hole = max(1, strip / 2)
            for x in stride(from: hole, to: w - hole, by: hole * 3) {
                picture.fillRect(x: x, y: (strip - hole) / 2, width: hole, height: hole, RGB(0x9A, 0x9E, 0xA6))
            }
            let cx = area.w / 2
            let cy = (Double(strip) + area.h) / 2
            let r = min(area.w, area.h - Double(strip)) * 0.32
            picture.fillCircle(cx: cx, cy: cy, radius: r, RGB(0x45, 0x4C, 0x57))
            picture.fillTriangle(
                (cx - r * 0.38, cy - r * 0.55), (cx - r * 0.38, cy + r * 0.55), (cx + r * 0.6, cy),
                RGB(0xF2, 0xF3, 0xF5))
        case .photo:
            picture.fillVerticalGradient(top: RGB(0x2E, 0x5A, 0x88), bottom: RGB(0x12, 0x22, 0x36))
            let base = area.h * 0.85
            picture.fillCircle(cx: area.w * 0.74, cy: area.h * 0.28, radius: min(area.w, area.h) * 0.11, RGB(0xF2, 0xC9, 0x4C))
            picture.fillTriangle(
                (area.w * 0.08, base), (area.w * 0.40, area.h * 0.30), (area.w * 0.72, base), RGB(0x5C, 0x7C, 0x99))
            picture.fillTriangle(
                (area.w * 0.42, base), (area.w * 0.66, area.h * 0.45), (area.w * 0.92, base), RGB(0x3E, 0x5A, 0x73))
            picture.fillRect(x: Int(area.w * 0.08), y: Int(base), width: Int(area.w * 0.84), height: max(1, h / 60),
                RGB(0x3E, 0x5A, 0x73))
        case .other:
            picture.fillVerticalGradient(top: RGB(0x3A, 0x3D, 0x42), bottom: RGB(0x1F, 0x21, 0x25))
            let pageH = area.h * 0.7
            let pageW = pageH * 0.75
            let left = (area.w - pageW) / 2
            let top = (area.h - pageH) / 2
            let fold = pageW * 0.3
            picture.fillRect(x: Int(left), y: Int(top + fold), width: Int(pageW), height: Int(pageH - fold), RGB(0xE6, 0xE8, 0xEB))
            picture.fillRect(x: Int(left), y: Int(top), width: Int(pageW - fold), height: Int(fold) + 1, RGB(0xE6, 0xE8, 0xEB))
            picture.fillTriangle(
                (left + pageW - fold, top), (left + pageW, top + fold), (left + pageW - fold, top + fold), RGB(0xB4, 0xB8, 0xBE))
            for line in 0..<3 {
                let y = top + fold + pageH * 0.12 + Double(line) * pageH * 0.13
                picture.fillRect(x: Int(left + pageW * 0.15), y: Int(y), width: Int(pageW * 0.7), height: max(1, h / 60),
                    RGB(0x9A, 0x9E, 0xA6))
            }
        }

        if band > 0 {
            picture.fillRect(x: 0, y: h - band, width: w, height: band, RGB(0x0A, 0x0B, 0x0D))
            let fits = max(0, (w - 2 * textScale) / (BitmapFont.advance * textScale))
            let shown = text.count > fits ? String(text.prefix(max(0, fits - 1))) + "." : text
            let textWidth = shown.count * BitmapFont.advance * textScale - textScale
            picture.drawText(
                shown, x: max(0, (w - textWidth) / 2), y: h - band + 2 * textScale, scale: textScale,
                RGB(0xE8, 0xEA, 0xED))
        }
        return picture
    }
}
