/// A picture on the left and text lines beside it on the right, as `info` shows a file.
public enum BesideLayout {
    /// `image` (nil: text only) with `lines` starting `gap` columns to its right, each sanitized and cut to the
    /// rest of `terminalColumns`. When fewer than `minimumTextColumns` would remain, the lines go under the
    /// picture instead. Ends with a newline; with protocol pictures the rows are reserved first.
    public static func render(
        _ image: RenderedImage?, lines: [String], terminalColumns: Int, gap: Int = 2, minimumTextColumns: Int = 20
    ) -> String {
        let textLines = lines.map(TerminalText.sanitize)
        guard let image else {
            return textLines.map { TerminalText.truncate($0, toWidth: max(terminalColumns, 1)) + "\n" }.joined()
        }
        let textColumn = image.columns + max(gap, 0)
        let room = terminalColumns - textColumn
        if !textLines.isEmpty, room < minimumTextColumns {
            return render(image, lines: [], terminalColumns: terminalColumns, gap: gap)
                + render(nil, lines: lines, terminalColumns: terminalColumns)
        }
        let height = max(image.rows, textLines.count)
        func text(_ row: Int) -> String {
            row < textLines.count ? TerminalText.truncate(textLines[row], toWidth: room) : ""
        }
        var out = ""
        switch image.body {
        case .lines(let pictureLines):
            for row in 0..<height {
                let left = row < pictureLines.count ? pictureLines[row] : String(repeating: " ", count: image.columns)
                out += TerminalText.trimTrailingSpaces(left + String(repeating: " ", count: max(gap, 0)) + text(row)) + "\n"
            }
        case .escape(let escape):
            out += String(repeating: "\n", count: height) + "\u{1B}[\(height)A\u{1B}7" + escape + "\u{1B}8"
            for row in 0..<height {
                let line = text(row)
                out += (line.isEmpty ? "" : "\u{1B}[\(textColumn + 1)G" + line) + "\n"
            }
        }
        return out
    }
}
