/// Names laid out in as many columns as fit a width, read down then across (as `ls` does).
public enum ColumnList {
    /// The lines for `items` in columns that fit `width` cells, two spaces apart; one column at least.
    public static func lines(_ items: [String], width: Int) -> [String] {
        guard !items.isEmpty else { return [] }
        let widths = items.map(TerminalWidth.of)
        let cell = (widths.max() ?? 0) + 2
        let columns = max(1, min(items.count, (max(width, 1) + 2) / cell))
        let rows = (items.count + columns - 1) / columns
        var lines: [String] = []
        lines.reserveCapacity(rows)
        for row in 0..<rows {
            var line = ""
            var column = 0
            var index = row
            while index < items.count {
                if column > 0 { line += String(repeating: " ", count: cell - widths[index - rows]) }
                line += items[index]
                column += 1
                index += rows
            }
            lines.append(line)
        }
        return lines
    }
}
