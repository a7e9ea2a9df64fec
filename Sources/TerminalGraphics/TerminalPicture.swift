import Imaging

/// A picture ready to be drawn: decoded pixels, upright, and the original JPEG when it can be sent as is.
public struct TerminalPicture: Sendable, Hashable {
    /// The upright pixels (any size; renderers scale them).
    public var image: RGBImage
    /// The JPEG the pixels came from, kept only when it already displays upright (EXIF orientation 1): iTerm2
    /// output sends it unchanged instead of re-encoding.
    public var jpeg: [UInt8]?
    /// libjpeg's warning when the data was damaged and the picture is partly grey (e.g. a truncated thumbnail).
    public var warning: String?

    public init(image: RGBImage, jpeg: [UInt8]? = nil, warning: String? = nil) {
        self.image = image
        self.jpeg = jpeg
        self.warning = warning
    }

    /// Decodes `jpeg` for display in `box` pixels (see `TerminalImageRenderer.pixelBox`): at the smallest libjpeg
    /// scale that covers the box, within `limits` (by default `DecodeLimits.forTarget(box)`), then turned upright
    /// by the EXIF `orientation` (1–8). Throws a one-line `ImagingError` for broken or oversized JPEGs.
    public static func decode(
        jpeg: [UInt8], orientation: Int = 1, fitting box: PixelSize, limits: DecodeLimits? = nil
    ) throws(ImagingError) -> TerminalPicture {
        let turn = ImageOrientation(exifValue: orientation)
        let storedBox = turn.apply(to: box)  // the box in stored (pre-rotation) coordinates
        let decoded = try JPEGDecoder.decode(jpeg, fitting: storedBox, limits: limits ?? .forTarget(box))
        return TerminalPicture(
            image: decoded.image.oriented(turn), jpeg: turn == .identity ? jpeg : nil, warning: decoded.warning)
    }
}

/// A picture rendered for the terminal: what to print and how many cells it covers.
public struct RenderedImage: Sendable, Hashable {
    public enum Body: Sendable, Hashable {
        /// Half-block text: `rows` strings, each exactly `columns` cells wide and ending with `ESC[0m`.
        case lines([String])
        /// A graphics-protocol escape that paints `columns` x `rows` cells from the cursor and leaves the cursor
        /// where it was (layouts position it; see `ContactSheet` and `BesideLayout`).
        case escape(String)
    }

    public var columns: Int
    public var rows: Int
    public var body: Body
}

/// Renders pictures with one `RenderMethod`, sized in character cells. Cells are assumed twice as tall as wide
/// (2:1), so one cell holds two square pixels stacked, which is also how protocol pictures are sized in cells.
public struct TerminalImageRenderer: Sendable, Hashable {
    public var method: RenderMethod
    /// Pixels per cell assumed for protocol pictures: kitty output is reduced to at most this many pixels per
    /// cell (the terminal scales it to the cells anyway), and `pixelBox` asks decoders for this much.
    public var cellPixels: PixelSize
    /// iTerm2 output re-encodes instead of sending an original JPEG larger than this.
    public var maxPassthroughJPEGBytes: Int

    public init(
        method: RenderMethod, cellPixels: PixelSize = PixelSize(width: 10, height: 20),
        maxPassthroughJPEGBytes: Int = 1 << 20
    ) {
        self.method = method
        self.cellPixels = cellPixels
        self.maxPassthroughJPEGBytes = maxPassthroughJPEGBytes
    }

    /// The pixels worth decoding for a picture of at most `columns` x `maxRows` cells with this method.
    public func pixelBox(columns: Int, maxRows: Int) -> PixelSize {
        let c = max(columns, 1)
        let r = max(maxRows, 1)
        switch method {
        case .halfBlocks: return PixelSize(width: c, height: 2 * r)
        case .kitty, .iTerm: return PixelSize(width: c * cellPixels.width, height: r * cellPixels.height)
        case .text: return PixelSize(width: 1, height: 1)
        }
    }

    /// The cells a picture of `size` takes at most `columns` wide and `maxRows` high, keeping its aspect: in
    /// half blocks a cell is two pixels stacked; a protocol picture is measured in `cellPixels`.
    public func cells(for size: PixelSize, columns: Int, maxRows: Int) -> (columns: Int, rows: Int) {
        let c = max(columns, 1)
        let r = max(maxRows, 1)
        switch method {
        case .kitty, .iTerm:
            let cw = max(cellPixels.width, 1)
            let ch = max(cellPixels.height, 1)
            let fit = size.fitted(into: PixelSize(width: c * cw, height: r * ch))
            return (min(c, (fit.width + cw - 1) / cw), min(r, (fit.height + ch - 1) / ch))
        case .halfBlocks, .text:
            let fit = size.fitted(into: PixelSize(width: c, height: 2 * r))
            return (fit.width, (fit.height + 1) / 2)
        }
    }

    /// `picture` in at most `columns` x `maxRows` cells; nil for `.text`.
    public func render(_ picture: TerminalPicture, columns: Int, maxRows: Int) -> RenderedImage? {
        let (c, r) = cells(for: picture.image.size, columns: columns, maxRows: maxRows)
        switch method {
        case .text:
            return nil
        case .halfBlocks(let depth):
            // One pixel per column, two per row: exactly the fitted size `cells` was computed from.
            let box = PixelSize(width: max(columns, 1), height: 2 * max(maxRows, 1))
            let lines = HalfBlockRenderer.render(picture.image.resized(toFit: box), depth: depth)
            return RenderedImage(columns: c, rows: r, body: .lines(lines))
        case .kitty:
            let limit = PixelSize(width: c * cellPixels.width, height: r * cellPixels.height)
            var image = picture.image
            if image.width > limit.width || image.height > limit.height { image = image.resized(toFit: limit) }
            return RenderedImage(columns: c, rows: r, body: .escape(KittyRenderer.render(image, columns: c, rows: r)))
        case .iTerm:
            var jpeg = picture.jpeg.flatMap { $0.count <= maxPassthroughJPEGBytes ? $0 : nil }
            if jpeg == nil {
                let limit = PixelSize(width: c * cellPixels.width, height: r * cellPixels.height)
                var image = picture.image
                if image.width > limit.width || image.height > limit.height { image = image.resized(toFit: limit) }
                jpeg = try? JPEGEncoder.encode(image, quality: 90)
            }
            guard let jpeg else {
                return TerminalImageRenderer(method: .halfBlocks(.trueColor)).render(picture, columns: columns, maxRows: maxRows)
            }
            return RenderedImage(columns: c, rows: r, body: .escape(ITermRenderer.render(jpeg: jpeg, columns: c, rows: r)))
        }
    }
}
