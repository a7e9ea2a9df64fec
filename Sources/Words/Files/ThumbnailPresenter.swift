import CameraFacts
import Imaging
import MediaFormats
import TerminalGraphics
import TextKit

/// How thumbnails are shown on this output: pictures drawn with the method the terminal supports (or the
/// `images` setting forces), or a line of text per file when output is not a terminal or `set images off`.
public struct ThumbnailPresenter {
    /// The narrowest `thumb` tile: three to a row on an 80-column terminal, widened to fill it.
    public static let thumbTileColumns = 24
    /// The narrowest `ls --thumbs` tile: four to a row on an 80-column terminal, widened to fill it.
    public static let sheetTileColumns = 18
    /// Columns of the picture `info` draws beside the details.
    public static let besideColumns = 28

    public let method: RenderMethod
    /// The terminal's width; 80 when output is not a terminal (a forced method drawing into a pipe).
    public let columns: Int
    /// The terminal's height, when it says.
    public let rows: Int?
    /// A character cell in pixels, for pictures drawn with a graphics protocol: the terminal's own when it says,
    /// else 10x20 (a cell twice as high as wide, as half blocks take it).
    public let cellPixels: PixelSize

    public init(
        mode: ImageMode, environment: [String: String], terminalColumns: Int?, terminalRows: Int? = nil,
        cellPixels: (width: Int, height: Int)? = nil
    ) {
        method = TerminalCapabilities.method(for: mode, environment: environment, isTTY: terminalColumns != nil)
        columns = max(terminalColumns ?? 80, 1)
        rows = terminalRows
        let assumed = PixelSize(width: 10, height: 20)
        switch method {
        case .kitty, .iTerm: self.cellPixels = cellPixels.map { PixelSize(width: $0.width, height: $0.height) } ?? assumed
        case .halfBlocks, .text: self.cellPixels = assumed
        }
    }

    public var drawsPictures: Bool { method.drawsPictures }

    /// The tile size for `count` pictures asked to `request` (see `PictureLayout.choose`).
    public func layout(_ request: PictureLayout.Request, count: Int, minimumTile: Int) -> PictureLayout {
        PictureLayout.choose(request, count: count, minimumTile: minimumTile, columns: columns, rows: rows, cell: cellPixels)
    }

    /// A contact sheet of tiles of `layout`'s size.
    public func sheet(_ layout: PictureLayout) -> ContactSheet {
        ContactSheet(
            method: method, terminalColumns: columns, tileColumns: layout.tileColumns, gap: PictureLayout.gap,
            maxImageRows: layout.maxImageRows, cellPixels: cellPixels)
    }

    /// The thumbnail decoded for `box` pixels (see `ContactSheet.pixelBox`) and turned upright. The decoder's
    /// memory is bounded by the box, so by the terminal's size (`DecodeLimits.forTarget`), whatever the JPEG
    /// claims; a broken or hostile one throws a one-line `ImagingError`.
    public func picture(_ thumbnail: Thumbnail, fitting box: PixelSize) throws(ImagingError) -> TerminalPicture {
        try TerminalPicture.decode(jpeg: thumbnail.jpeg, orientation: thumbnail.orientation, fitting: box)
    }

    /// The text line for a thumbnail: `DJI_0001.JPG: thumbnail 160x120, 5.2 kB`, with where it came from when
    /// the camera did not give it itself.
    public func describe(_ thumbnail: Thumbnail, of file: MediaFile) -> String {
        var line = "\(SafeText.display(file.name)): thumbnail"
        if let info = try? JPEGReader().read(from: MemoryByteSource(thumbnail.jpeg)) {
            line += " \(info.displayWidth)x\(info.displayHeight)"
        }
        return line + thumbnail.originNote + ", \(HumanReadable.size(UInt64(thumbnail.jpeg.count)))"
    }

    /// The text line for a file without a thumbnail: `DJI_0009.MP4: no thumbnail (…)`.
    public func describe(_ none: NoThumbnail, of file: MediaFile) -> String {
        "\(SafeText.display(file.name)): \(SafeText.display(none.description))"
    }
}
