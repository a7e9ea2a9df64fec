/// Text broken into lines at spaces so that a terminal never cuts a word: messages at a prompt (errors, the
/// banner, what a command did) and help. No line is wider than the width asked for (a word wider than a
/// whole line is cut).
public enum WordWrap {
    /// `line` as it is when it fits `width` cells, else broken at spaces into lines that fit. A line of
    /// fields set apart by two spaces or more (`status`: `paused 0:02.0/0:03.0  frame 60/90  30 fps`) breaks
    /// between fields first, keeping the gaps inside a line. A field wider than a line goes on from where it
    /// starts, broken between words, its further lines under its start (`can:   list in one request, ...`
    /// keeps its value beside its name) when that is in the left half.
    public static func lines(_ line: String, width: Int) -> [String] {
        guard width > 0, TerminalWidth.of(line) > width else { return [line] }
        var lines: [String] = []
        var current = ""
        for (gap, field) in fields(of: line) {
            let joined = current.isEmpty ? gap + field : current + gap + field
            if TerminalWidth.of(joined) <= width {
                current = joined
                continue
            }
            let words = field.split(separator: " ").map(String.init)
            if TerminalWidth.of(field) <= width || TerminalWidth.of(current + gap + (words.first ?? "")) > width {
                // Whole on a line of its own, or not even its first word fits after what is there.
                if !current.isEmpty { lines.append(current) }
                current = ""
                if TerminalWidth.of(field) <= width {
                    current = field
                    continue
                }
            }
            let lead = current.isEmpty ? "" : current + gap
            let start = TerminalWidth.of(lead)
            var filled = fill(words, width: width, first: start, rest: start <= width / 2 ? start : 0)
            filled[0] = lead + filled[0].dropFirst(start)
            current = filled.removeLast()
            lines += filled
        }
        lines.append(current)
        return lines
    }

    /// The fields of `line` with the spaces before each (none, or a run of two or more).
    private static func fields(of line: String) -> [(gap: String, field: String)] {
        var result: [(gap: String, field: String)] = []
        var gap = ""
        var field = ""
        var spaces = 0
        for character in line {
            if character == " " {
                spaces += 1
                continue
            }
            if spaces >= 2 && !field.isEmpty {
                result.append((gap, field))
                gap = String(repeating: " ", count: spaces)
                field = ""
            } else if spaces > 0 {
                field += String(repeating: " ", count: spaces)
            }
            spaces = 0
            field.append(character)
        }
        result.append((gap, field))
        return result
    }

    /// Words filled into lines of at most `width` cells, the first line indented by `first` spaces and the
    /// others by `rest`. Always at least one line.
    public static func fill(_ words: [String], width: Int, first: Int, rest: Int) -> [String] {
        var lines: [String] = []
        var line = String(repeating: " ", count: first)
        var lineIsEmpty = true
        for var word in words {
            while true {
                let room = width - TerminalWidth.of(line) - (lineIsEmpty ? 0 : 1)
                if TerminalWidth.of(word) <= room {
                    line += (lineIsEmpty ? "" : " ") + word
                    lineIsEmpty = false
                    break
                }
                if !lineIsEmpty {
                    lines.append(line)
                    line = String(repeating: " ", count: rest)
                    lineIsEmpty = true
                    continue
                }
                // A word wider than a whole line: cut it.
                let (head, tail) = cut(word, to: max(1, room))
                lines.append(line + head)
                line = String(repeating: " ", count: rest)
                word = tail
            }
        }
        lines.append(lineIsEmpty ? "" : line)
        return lines
    }

    /// `word` split after at most `cells` cells.
    private static func cut(_ word: String, to cells: Int) -> (String, String) {
        var head = ""
        var used = 0
        var index = word.startIndex
        while index < word.endIndex {
            let w = TerminalWidth.of(String(word[index]))
            if used + w > cells && !head.isEmpty { break }
            head.append(word[index])
            used += w
            index = word.index(after: index)
        }
        return (head, String(word[index...]))
    }

}
