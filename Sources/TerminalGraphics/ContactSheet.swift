import Imaging

/// Thumbnails side by side, as many to a row as fit the terminal, each with its name centred under it.
/// Rows are rendered one at a time (`render(row:)`), so a sheet of hundreds can be printed as thumbnails arrive.
public struct ContactSheet: Sendable {
    /// One tile: a name and its picture, or a note (e.g. "no thumbnail") where the picture would be.
    public struct Item: Sendable, Hashable {
        public var name: String
        public var picture: TerminalPicture?
        public var note: String?

        public init(name: String, picture: TerminalPicture?, note: String? = nil) {
            self.name = name
            self.picture = picture
            self.note = note
        }
    }

    public var renderer: TerminalImageRenderer
    /// Columns of one tile (picture and name); at least 1, at most the terminal width.
    public let tileColumns: Int
    /// Blank columns between tiles.
    public let gap: Int
    /// Rows a picture may take (the name line comes on top of these).
    public let maxImageRows: Int
    /// Tiles per row.
    public let perRow: Int

    /// A sheet for `terminalColumns`; `maxImageRows` defaults to what a 4:3 picture needs at `tileColumns`.
    /// `cellPixels`: the terminal's cell in pixels, when it says (protocol pictures are sized by it).
    public init(
        method: RenderMethod, terminalColumns: Int, tileColumns: Int = 20, gap: Int = 2, maxImageRows: Int? = nil,
        cellPixels: PixelSize? = nil
    ) {
        self.renderer = TerminalImageRenderer(method: method)
        if let cellPixels { renderer.cellPixels = cellPixels }
        let width = max(terminalColumns, 1)
        self.tileColumns = min(max(tileColumns, 1), width)
        self.gap = max(gap, 0)
        self.maxImageRows = max(maxImageRows ?? (self.tileColumns * 3 + 7) / 8, 1)
        self.perRow = max(1, (width + self.gap) / (self.tileColumns + self.gap))
    }

    /// The pixels worth decoding for one tile's picture (pass to `TerminalPicture.decode`).
    public var pixelBox: PixelSize { renderer.pixelBox(columns: tileColumns, maxRows: maxImageRows) }

    /// The whole sheet, row after row.
    public func render(_ items: [Item]) -> String {
        stride(from: 0, to: items.count, by: perRow).map { start in
            render(row: items[start..<min(start + perRow, items.count)])
        }.joined()
    }

    /// One row of at most `perRow` items (more are split into rows), ending with a newline.
    /// With `.text`, one name per line.
    public func render(row items: some Collection<Item>) -> String {
        guard items.count <= perRow else { return render(Array(items)) }
        if renderer.method == .text {
            return items.map { item in
                TerminalText.sanitize(item.name) + (item.note.map { ": " + TerminalText.sanitize($0) } ?? "") + "\n"
            }.joined()
        }
        let tiles = items.map { item in
            (item, item.picture.flatMap { renderer.render($0, columns: tileColumns, maxRows: maxImageRows) })
        }
        let height = max(1, tiles.map { $0.1?.rows ?? 1 }.max() ?? 1)
        let names = TerminalText.trimTrailingSpaces(
            tiles.map { TerminalText.center(TerminalText.fit($0.0.name, width: tileColumns), width: tileColumns) }
                .joined(separator: String(repeating: " ", count: gap)))

        var out = ""
        if case .halfBlocks = renderer.method {
            for line in 0..<height {
                let cells = tiles.map { item, image -> String in
                    guard let image else {
                        return line == 0 ? noteCell(item) : String(repeating: " ", count: tileColumns)
                    }
                    guard case .lines(let lines) = image.body, line < lines.count else {
                        return String(repeating: " ", count: tileColumns)
                    }
                    let left = (tileColumns - image.columns) / 2
                    return String(repeating: " ", count: left) + lines[line]
                        + String(repeating: " ", count: tileColumns - image.columns - left)
                }
                out += TerminalText.trimTrailingSpaces(cells.joined(separator: String(repeating: " ", count: gap))) + "\n"
            }
        } else {
            // Reserve the rows first (scrolling now, not halfway through a picture), go back up, paint each
            // tile at its column with the cursor saved and restored, then step below the pictures.
            out += String(repeating: "\n", count: height) + "\u{1B}[\(height)A"
            for (index, (item, image)) in tiles.enumerated() {
                let column = index * (tileColumns + gap)
                if let image, case .escape(let escape) = image.body {
                    let left = (tileColumns - image.columns) / 2
                    out += "\u{1B}[\(column + left + 1)G\u{1B}7" + escape + "\u{1B}8"
                } else {
                    out += "\u{1B}[\(column + 1)G" + TerminalText.trimTrailingSpaces(noteCell(item))
                }
            }
            out += "\u{1B}[\(height)B\r"
        }
        return out + names + "\n"
    }

    private func noteCell(_ item: Item) -> String {
        TerminalText.center(TerminalText.fit(item.note ?? "no picture", width: tileColumns), width: tileColumns)
    }
}
