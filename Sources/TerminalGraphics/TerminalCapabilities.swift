/// Works out how to draw pictures from the environment alone (no terminal queries, so it is instant, works in
/// scripts and is a pure function a test can drive with a table).
public enum TerminalCapabilities {
    /// The method for `mode`: the forced protocol for `kitty`/`iterm`/`blocks` (even when not a terminal, so
    /// `set images blocks` can colour a pipe into `less -R`), nothing for `off`, detection for `auto`.
    public static func method(
        for mode: ImageMode, environment: [String: String], isTTY: Bool
    ) -> RenderMethod {
        switch mode {
        case .auto: return detect(environment: environment, isTTY: isTTY)
        case .kitty: return .kitty
        case .iterm: return .iTerm
        case .blocks: return .halfBlocks(colorDepth(environment: environment))
        case .off: return .text
        }
    }

    /// Detection for `ImageMode.auto`, first match wins:
    /// 1. not a TTY, or `TERM=dumb` → `.text`;
    /// 2. kitty graphics: `KITTY_WINDOW_ID` set, `TERM` xterm-kitty or xterm-ghostty, `TERM_PROGRAM` ghostty;
    /// 3. iTerm2 images: `TERM_PROGRAM` iTerm.app or WezTerm (WezTerm's kitty support is off by default and
    ///    incomplete, its iTerm2 support is on), `LC_TERMINAL=iTerm2` (set by iTerm2, survives ssh);
    /// 4. otherwise half blocks in 24-bit or 256 colours (`colorDepth`).
    /// Inside tmux or screen (`TMUX` set, `TERM` screen*/tmux*) graphics escapes do not pass through, so steps
    /// 2 and 3 are skipped even when the variables leaked in from the outer terminal.
    public static func detect(environment: [String: String], isTTY: Bool) -> RenderMethod {
        guard isTTY else { return .text }
        let term = environment["TERM", default: ""]
        if term == "dumb" { return .text }
        let program = environment["TERM_PROGRAM", default: ""].lowercased()
        let multiplexed =
            !environment["TMUX", default: ""].isEmpty || term.hasPrefix("screen") || term.hasPrefix("tmux")
        if !multiplexed {
            if !environment["KITTY_WINDOW_ID", default: ""].isEmpty || term == "xterm-kitty" || term == "xterm-ghostty"
                || program == "ghostty"
            {
                return .kitty
            }
            if program == "iterm.app" || program == "wezterm" || environment["LC_TERMINAL"] == "iTerm2" {
                return .iTerm
            }
        }
        return .halfBlocks(colorDepth(environment: environment))
    }

    /// 24-bit when `COLORTERM` is truecolor/24bit, `TERM` is a `*-direct` or a known 24-bit terminal, or
    /// `TERM_PROGRAM` is one; 256 colours otherwise.
    public static func colorDepth(environment: [String: String]) -> ColorDepth {
        let colorterm = environment["COLORTERM", default: ""].lowercased()
        if colorterm == "truecolor" || colorterm == "24bit" { return .trueColor }
        let term = environment["TERM", default: ""]
        if term.hasSuffix("-direct") || trueColorTerms.contains(term) { return .trueColor }
        if trueColorPrograms.contains(environment["TERM_PROGRAM", default: ""].lowercased()) { return .trueColor }
        return .palette256
    }

    static let trueColorTerms: Set<String> = [
        "xterm-kitty", "xterm-ghostty", "alacritty", "foot", "foot-extra", "wezterm", "contour", "iterm2",
    ]
    static let trueColorPrograms: Set<String> = ["iterm.app", "wezterm", "ghostty", "vscode", "hyper"]
}
