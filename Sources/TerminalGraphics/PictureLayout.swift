import Imaging

/// How large pictures are drawn: the width of a tile in cells and the rows its picture may take, chosen from
/// the terminal's size (a picture alone fills the width, a sheet puts as many tiles to a row as fit and
/// widens them to fill it), or asked for (`--size COLSxROWS`, `--width COLS`).
public struct PictureLayout: Sendable, Equatable {
    /// What the command was asked for.
    public enum Request: Sendable, Equatable {
        /// Fit the terminal.
        case fit
        /// Tiles this many cells wide, a picture at most this many rows high.
        case size(columns: Int, rows: Int)
        /// Tiles this many cells wide, as high as a 4:3 picture needs.
        case width(Int)
    }

    /// Columns of one tile (its picture and the name under it).
    public var tileColumns: Int
    /// Rows a tile's picture may take.
    public var maxImageRows: Int

    /// Blank columns between tiles.
    public static let gap = 2
    /// Rows a sheet keeps for other things when it fits the terminal's height: the names under a row of
    /// pictures and the prompt after it.
    static let reservedRows = 2
    /// The height assumed for a terminal that does not say its own.
    static let assumedRows = 24

    public init(tileColumns: Int, maxImageRows: Int) {
        self.tileColumns = max(tileColumns, 1)
        self.maxImageRows = max(maxImageRows, 1)
    }

    /// The layout for `count` pictures (at least 1) on a terminal of `columns` x `rows` cells whose cells are
    /// `cell` pixels: with `.fit`, as many tiles of at least `minimumTile` columns to a row as there are
    /// pictures and room, widened to fill the width, each picture as high as a 4:3 one needs and no higher
    /// than the terminal less a line for the names and one for the prompt; a request is kept within the
    /// width.
    public static func choose(
        _ request: Request, count: Int, minimumTile: Int, columns: Int, rows: Int?, cell: PixelSize
    ) -> PictureLayout {
        let width = max(columns, 1)
        switch request {
        case .size(let tile, let high):
            return PictureLayout(tileColumns: min(tile, width), maxImageRows: high)
        case .width(let tile):
            let fitted = min(tile, width)
            return PictureLayout(tileColumns: fitted, maxImageRows: landscapeRows(columns: fitted, cell: cell))
        case .fit:
            let room = max(1, (width + gap) / (max(minimumTile, 1) + gap))
            let perRow = min(max(count, 1), room)
            let tile = (width - gap * (perRow - 1)) / perRow
            let high = max(1, (rows ?? assumedRows) - reservedRows)
            return PictureLayout(tileColumns: tile, maxImageRows: min(landscapeRows(columns: tile, cell: cell), high))
        }
    }

    /// The rows a 4:3 picture `columns` cells wide takes in cells of `cell` pixels.
    public static func landscapeRows(columns: Int, cell: PixelSize) -> Int {
        let pixelsHigh = max(columns, 1) * max(cell.width, 1) * 3 / 4
        return max(1, (pixelsHigh + max(cell.height, 1) - 1) / max(cell.height, 1))
    }

    /// Reads `--size`'s `COLSxROWS` (`60x20`); nil for anything else, or a side of 0 or over 1000.
    public static func size(parsing text: String) -> Request? {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let tile = Int(parts[0]), let high = Int(parts[1]), (1...1000).contains(tile),
            (1...1000).contains(high)
        else { return nil }
        return .size(columns: tile, rows: high)
    }
}
