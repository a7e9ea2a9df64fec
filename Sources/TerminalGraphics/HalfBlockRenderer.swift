import Imaging

/// Draws a picture with `▀` (U+2580 UPPER HALF BLOCK): each character cell shows two pixels stacked, the top one
/// in the foreground colour and the bottom one in the background colour. With the usual 2:1 cell, those pixels
/// are square, so a picture `w` x `h` pixels takes `w` columns and `ceil(h / 2)` rows.
public enum HalfBlockRenderer {
    static let upperHalfBlock = "\u{2580}"

    /// One string per character row, each exactly `image.width` cells wide and ending with `ESC[0m`.
    /// A colour is only sent when it differs from the cell before; an odd last row leaves the background default.
    public static func render(_ image: RGBImage, depth: ColorDepth) -> [String] {
        var lines: [String] = []
        lines.reserveCapacity((image.height + 1) / 2)
        for top in stride(from: 0, to: image.height, by: 2) {
            var line = ""
            var foreground: String?
            var background: String?
            for x in 0..<image.width {
                let fg = code(image[x, top], depth: depth, layer: 38)
                let bg = top + 1 < image.height ? code(image[x, top + 1], depth: depth, layer: 48) : "49"
                var changes: [String] = []
                if fg != foreground { changes.append(fg) }
                if bg != background, !(bg == "49" && background == nil) { changes.append(bg) }
                if !changes.isEmpty { line += "\u{1B}[" + changes.joined(separator: ";") + "m" }
                foreground = fg
                background = bg
                line += upperHalfBlock
            }
            lines.append(line + "\u{1B}[0m")
        }
        return lines
    }

    /// The SGR parameters selecting `color` as foreground (`layer` 38) or background (48).
    static func code(_ color: RGB, depth: ColorDepth, layer: Int) -> String {
        switch depth {
        case .trueColor: return "\(layer);2;\(color.r);\(color.g);\(color.b)"
        case .palette256: return "\(layer);5;\(Palette256.index(for: color))"
        }
    }
}

/// The xterm 256-colour palette's fixed part: the 6x6x6 colour cube (16–231) and the grey ramp (232–255).
/// Entries 0–15 are left out on purpose: users re-theme them, so they do not have dependable colours.
public enum Palette256 {
    /// The channel values of the cube's six levels.
    public static let cubeLevels: [UInt8] = [0, 95, 135, 175, 215, 255]

    /// The nearest entry (squared RGB distance) among the cube and the grey ramp; the cube wins ties.
    public static func index(for color: RGB) -> UInt8 {
        let r = nearestLevel(color.r)
        let g = nearestLevel(color.g)
        let b = nearestLevel(color.b)
        let cube = UInt8(16 + 36 * r + 6 * g + b)
        let mean = (Int(color.r) + Int(color.g) + Int(color.b)) / 3
        let step = min(max((mean - 8 + 5) / 10, 0), 23)
        let gray = UInt8(232 + step)
        return distance(color, self.color(at: gray)) < distance(color, self.color(at: cube)) ? gray : cube
    }

    /// The colour of entry `index` (16–255; lower entries are treated as black).
    public static func color(at index: UInt8) -> RGB {
        switch index {
        case 16...231:
            let i = Int(index) - 16
            return RGB(cubeLevels[i / 36], cubeLevels[i / 6 % 6], cubeLevels[i % 6])
        case 232...255:
            let v = UInt8(8 + 10 * (Int(index) - 232))
            return RGB(v, v, v)
        default:
            return .black
        }
    }

    private static func nearestLevel(_ value: UInt8) -> Int {
        var best = 0
        for (i, level) in cubeLevels.enumerated() where abs(Int(level) - Int(value)) < abs(Int(cubeLevels[best]) - Int(value)) {
            best = i
        }
        return best
    }

    private static func distance(_ a: RGB, _ b: RGB) -> Int {
        let dr = Int(a.r) - Int(b.r)
        let dg = Int(a.g) - Int(b.g)
        let db = Int(a.b) - Int(b.b)
        return dr * dr + dg * dg + db * db
    }
}
