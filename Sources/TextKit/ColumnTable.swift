/// Rows of cells printed as aligned columns, like `ls -l`; no trailing spaces.
public struct ColumnTable: Sendable {
    public enum Alignment: Sendable { case left, right }

    public var rows: [[String]]
    /// Per-column alignment; columns without one are left-aligned.
    public var alignments: [Alignment]
    /// Spaces before every line.
    public var indent: Int
    /// Spaces between columns.
    public var spacing: Int

    public init(rows: [[String]], alignments: [Alignment] = [], indent: Int = 0, spacing: Int = 2) {
        self.rows = rows
        self.alignments = alignments
        self.indent = indent
        self.spacing = spacing
    }

    /// The formatted lines, one per row.
    public func lines() -> [String] {
        let columnCount = rows.map(\.count).max() ?? 0
        var widths = Array(repeating: 0, count: columnCount)
        for row in rows {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], TerminalWidth.of(cell)) }
        }
        let gap = String(repeating: " ", count: spacing)
        return rows.map { row in
            var line = String(repeating: " ", count: indent)
            for (index, cell) in row.enumerated() {
                if index > 0 { line += gap }
                let padding = String(repeating: " ", count: widths[index] - TerminalWidth.of(cell))
                let alignment = index < alignments.count ? alignments[index] : .left
                line += alignment == .right ? padding + cell : cell + (index == row.count - 1 ? "" : padding)
            }
            while line.last == " " { line.removeLast() }
            return line
        }
    }

    /// The formatted table, lines joined with newlines.
    public func render() -> String { lines().joined(separator: "\n") }
}
