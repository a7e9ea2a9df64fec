/// The user's setting for pictures (`set images …`): detect, force a protocol, or turn pictures off.
public enum ImageMode: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Pick from the environment (see `TerminalCapabilities.detect`).
    case auto
    /// The kitty graphics protocol (kitty, Ghostty).
    case kitty
    /// iTerm2 inline images (iTerm2, WezTerm).
    case iterm
    /// Colour half-block characters, 24-bit or 256-colour as the terminal allows.
    case blocks
    /// No pictures: names and text only.
    case off

    /// Parses a setting value, case-insensitively; accepts `on` for `auto` and `none`/`text` for `off`.
    public init?(setting: String) {
        switch setting.lowercased() {
        case "auto", "on": self = .auto
        case "kitty": self = .kitty
        case "iterm", "iterm2": self = .iterm
        case "blocks", "halfblocks", "half-blocks": self = .blocks
        case "off", "none", "text": self = .off
        default: return nil
        }
    }

    public var description: String { rawValue }
}

/// How many colours half-block output may use.
public enum ColorDepth: Sendable, Hashable {
    /// `ESC[38;2;R;G;Bm`: 24-bit colour.
    case trueColor
    /// `ESC[38;5;Nm`: the xterm 256-colour palette.
    case palette256
}

/// How pictures are drawn on this output.
public enum RenderMethod: Sendable, Hashable, CustomStringConvertible {
    /// kitty graphics protocol escapes carrying raw RGB.
    case kitty
    /// iTerm2 inline-image escapes carrying the JPEG itself.
    case iTerm
    /// `▀` characters, the top pixel in the foreground colour and the bottom pixel in the background colour.
    case halfBlocks(ColorDepth)
    /// No picture at all (output is not a terminal, or pictures are off).
    case text

    public var description: String {
        switch self {
        case .kitty: return "kitty graphics"
        case .iTerm: return "iTerm2 inline images"
        case .halfBlocks(.trueColor): return "24-bit half blocks"
        case .halfBlocks(.palette256): return "256-colour half blocks"
        case .text: return "text only"
        }
    }

    /// True for methods that draw a picture.
    public var drawsPictures: Bool { self != .text }
}
