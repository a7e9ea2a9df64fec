import TestSupport
import Testing

@testable import TerminalGraphics

@Suite(.tags(.process), .notInFastRun) struct CapabilityTests {
    @Test(arguments: [
        // Not a terminal: no pictures, whatever the terminal would support.
        ([ "TERM": "xterm-kitty", "KITTY_WINDOW_ID": "1" ], false, RenderMethod.text),
        ([ "TERM": "dumb" ], true, .text),
        // kitty graphics
        ([ "TERM": "xterm-kitty", "KITTY_WINDOW_ID": "1" ], true, .kitty),
        ([ "TERM": "xterm-256color", "KITTY_WINDOW_ID": "3" ], true, .kitty),
        ([ "TERM": "xterm-ghostty", "TERM_PROGRAM": "ghostty" ], true, .kitty),
        ([ "TERM": "xterm-256color", "TERM_PROGRAM": "ghostty" ], true, .kitty),
        // iTerm2 inline images
        ([ "TERM": "xterm-256color", "TERM_PROGRAM": "iTerm.app" ], true, .iTerm),
        ([ "TERM": "xterm-256color", "LC_TERMINAL": "iTerm2" ], true, .iTerm),
        ([ "TERM": "xterm-256color", "TERM_PROGRAM": "WezTerm" ], true, .iTerm),
        // tmux/screen: graphics escapes do not pass through, even with the outer terminal's variables.
        ([ "TERM": "tmux-256color", "TMUX": "/tmp/tmux-1000/default,1,0", "KITTY_WINDOW_ID": "1", "COLORTERM": "truecolor" ], true, .halfBlocks(.trueColor)),
        ([ "TERM": "screen-256color", "TERM_PROGRAM": "iTerm.app" ], true, .halfBlocks(.trueColor)),
        ([ "TERM": "screen", "LC_TERMINAL": "iTerm2" ], true, .halfBlocks(.palette256)),
        // Half blocks: 24-bit where announced or known, else 256 colours.
        ([ "TERM": "xterm-256color", "COLORTERM": "truecolor" ], true, .halfBlocks(.trueColor)),
        ([ "TERM": "xterm-256color", "COLORTERM": "24bit" ], true, .halfBlocks(.trueColor)),
        ([ "TERM": "xterm-direct" ], true, .halfBlocks(.trueColor)),
        ([ "TERM": "alacritty" ], true, .halfBlocks(.trueColor)),
        ([ "TERM": "xterm-256color", "TERM_PROGRAM": "vscode" ], true, .halfBlocks(.trueColor)),
        ([ "TERM": "xterm-256color" ], true, .halfBlocks(.palette256)),
        ([ "TERM": "linux" ], true, .halfBlocks(.palette256)),
        ([:], true, .halfBlocks(.palette256)),
        ([ "TERM": "xterm-256color", "KITTY_WINDOW_ID": "" ], true, .halfBlocks(.palette256)),
    ] as [([String: String], Bool, RenderMethod)])
    func detection(environment: [String: String], isTTY: Bool, expected: RenderMethod) {
        #expect(TerminalCapabilities.detect(environment: environment, isTTY: isTTY) == expected)
        #expect(TerminalCapabilities.method(for: .auto, environment: environment, isTTY: isTTY) == expected)
    }

    @Test func theSettingOverridesDetection() {
        let kitty = ["TERM": "xterm-kitty", "KITTY_WINDOW_ID": "1"]
        let plain = ["TERM": "xterm-256color"]
        #expect(TerminalCapabilities.method(for: .off, environment: kitty, isTTY: true) == .text)
        #expect(TerminalCapabilities.method(for: .blocks, environment: kitty, isTTY: true) == .halfBlocks(.trueColor))
        #expect(TerminalCapabilities.method(for: .blocks, environment: plain, isTTY: false) == .halfBlocks(.palette256))
        #expect(TerminalCapabilities.method(for: .kitty, environment: plain, isTTY: true) == .kitty)
        #expect(TerminalCapabilities.method(for: .iterm, environment: plain, isTTY: false) == .iTerm)
    }

    @Test func settingValuesParse() {
        #expect(ImageMode(setting: "AUTO") == .auto)
        #expect(ImageMode(setting: "on") == .auto)
        #expect(ImageMode(setting: "kitty") == .kitty)
        #expect(ImageMode(setting: "iTerm2") == .iterm)
        #expect(ImageMode(setting: "blocks") == .blocks)
        #expect(ImageMode(setting: "off") == .off)
        #expect(ImageMode(setting: "none") == .off)
        #expect(ImageMode(setting: "sixel") == nil)
        #expect(ImageMode.allCases.map(\.description) == ["auto", "kitty", "iterm", "blocks", "off"])
    }
}
