/// Points at a column of a line: the line, then a caret under the column, for grammar and usage errors.
public enum ColumnMarker {
    /// Two lines: `line` made safe to print, and spaces then `^` under the 1-based scalar `column`.
    public static func lines(for line: String, column: Int) -> [String] {
        let scalars = Array(line.unicodeScalars)
        let before = String(String.UnicodeScalarView(scalars.prefix(max(0, min(column - 1, scalars.count)))))
        let shown = SafeText.display(line.replacingTabs())
        let offset = TerminalWidth.of(SafeText.display(before.replacingTabs()))
        return [shown, String(repeating: " ", count: offset) + "^"]
    }
}

extension String {
    fileprivate func replacingTabs() -> String {
        String(String.UnicodeScalarView(unicodeScalars.map { $0 == "\t" ? " " : $0 }))
    }
}
