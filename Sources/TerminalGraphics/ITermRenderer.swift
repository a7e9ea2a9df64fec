/// iTerm2 inline images (iTerm2, WezTerm): the JPEG file itself, base64, in one OSC 1337 escape; the terminal
/// decodes it and fits it into `columns` x `rows` cells keeping its aspect ratio.
public enum ITermRenderer {
    /// `ESC ] 1337 ; File=inline=1;size=…;width=Nc;height=Nr;preserveAspectRatio=1 : base64 BEL`.
    public static func render(jpeg: [UInt8], columns: Int, rows: Int) -> String {
        "\u{1B}]1337;File=inline=1;size=\(jpeg.count);width=\(columns);height=\(rows);preserveAspectRatio=1:"
            + Base64.encode(jpeg) + "\u{07}"
    }
}
