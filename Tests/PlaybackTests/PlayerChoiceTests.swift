import Playback
import Testing

/// What the surroundings say about playback, and which player that gives.
@Suite struct PlayerChoiceTests {
    @Test func theEnvironmentDecidesTheSymbolsAndTheWindow() {
        let utf8 = PlaybackEnvironment(environment: ["LANG": "en_GB.UTF-8", "DISPLAY": ":0"])
        #expect(utf8.unicode && utf8.hasDisplay && utf8.mpvArguments.isEmpty)
        #expect(!PlaybackEnvironment(environment: ["LC_ALL": "C", "LANG": "en_GB.UTF-8"]).unicode, "LC_ALL wins")
        #expect(PlaybackEnvironment(environment: ["LC_ALL": "", "LC_CTYPE": "C.utf8"]).unicode)
        let bare = PlaybackEnvironment(environment: ["MEDIASHELL_MPV_ARGS": " --vo=null  --ao=null "])
        #expect(!bare.unicode && !bare.hasDisplay && bare.mpvArguments == ["--vo=null", "--ao=null"])
        #expect(PlaybackEnvironment(environment: ["WAYLAND_DISPLAY": "wayland-0"]).hasDisplay)

        // auto: a window only at an interactive prompt with a display.
        let script = PlayerChoice(setting: .auto, interactive: false, environment: utf8)
        #expect(script.reasonForNoPlayer == .notInteractive)
        let headless = PlayerChoice(setting: .auto, interactive: true, environment: bare)
        #expect(headless.reasonForNoPlayer == .noDisplay)
        headless.update(.none)
        #expect(headless.reasonForNoPlayer == .setToNone)
    }
}
