import Imaging

/// The kitty graphics protocol (kitty, Ghostty): the picture travels as raw 24-bit RGB (`f=24`, so no PNG
/// encoder is needed), base64 in APC escapes of at most 4096 characters each.
public enum KittyRenderer {
    /// The protocol's maximum base64 payload per escape.
    public static let chunkSize = 4096

    /// Deletes every picture placed on the screen (`a=d`) and frees its data: a live view draws each frame
    /// in the place of the last, and would otherwise pile them up in the terminal's memory.
    public static let deleteAll = "\u{1B}_Ga=d,d=A,q=2\u{1B}\\"

    /// Escapes that show `image` scaled into `columns` x `rows` cells with its top-left at the cursor.
    /// `a=T` transmits and displays, `C=1` leaves the cursor where it was, `q=2` stops the terminal replying
    /// (a reply would arrive as input at the prompt). The first chunk carries the keys; each chunk says with
    /// `m=1` that more follow, and the last says `m=0`.
    public static func render(_ image: RGBImage, columns: Int, rows: Int) -> String {
        let payload = Array(Base64.encode(image.pixels).utf8)
        let keys = "a=T,f=24,s=\(image.width),v=\(image.height),c=\(columns),r=\(rows),C=1,q=2"
        var out = ""
        var start = 0
        repeat {
            let end = min(start + chunkSize, payload.count)
            let more = end < payload.count ? 1 : 0
            let control = start == 0 ? "\(keys),m=\(more)" : "m=\(more),q=2"
            out += "\u{1B}_G\(control);" + String(decoding: payload[start..<end], as: UTF8.self) + "\u{1B}\\"
            start = end
        } while start < payload.count
        return out
    }
}
