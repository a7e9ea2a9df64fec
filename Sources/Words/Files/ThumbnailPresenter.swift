import Imaging
import MediaFormats
import MediaManager
import TerminalGraphics
import TerminalKit
import Thumbnails

/// How thumbnails are shown on this output: pictures drawn with the method the terminal supports (or the
/// `images` setting forces), or a line of text per file when output is not a terminal or `set images off`.
public struct ThumbnailPresenter {
    /// Columns of a `thumb` tile: three to a row on an 80-column terminal.
    public static let thumbTileColumns = 24
    /// Columns of an `ls --thumbs` tile: four to a row on an 80-column terminal.
    public static let sheetTileColumns = 18
    /// Columns of the picture `info` draws beside the details.
    public static let besideColumns = 28

    public let method: RenderMethod
    /// The terminal's width; 80 when output is not a terminal (a forced method drawing into a pipe).
    public let columns: Int

    public init(mode: ImageMode, environment: [String: String], terminalColumns: Int?) {
        method = TerminalCapabilities.method(for: mode, environment: environment, isTTY: terminalColumns != nil)
        columns = max(terminalColumns ?? 80, 1)
    }

    public var drawsPictures: Bool { method.drawsPictures }

    /// A contact sheet of tiles `tileColumns` wide (narrower on a narrow terminal).
    public func sheet(tileColumns: Int) -> ContactSheet {
        ContactSheet(method: method, terminalColumns: columns, tileColumns: tileColumns)
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
