/// A line with the cursor marked by `|` inside it, as completion tests write it: `"fetch DJI_00|"`.
struct MarkedText {
    /// The line without the marker.
    let text: String
    /// The cursor as a UTF-8 byte offset into `text`.
    let cursor: Int

    init(_ marked: String, marker: Character = "|") {
        guard let index = marked.firstIndex(of: marker) else {
            text = marked
            cursor = marked.utf8.count
            return
        }
        var text = marked
        text.remove(at: index)
        self.text = text
        cursor = marked[..<index].utf8.count
    }

    /// Puts the marker back at `cursor` in `line`.
    static func mark(_ line: String, cursor: Int, marker: Character = "|") -> String {
        let bytes = Array(line.utf8)
        return String(decoding: bytes[..<cursor], as: UTF8.self) + String(marker)
            + String(decoding: bytes[cursor...], as: UTF8.self)
    }
}
