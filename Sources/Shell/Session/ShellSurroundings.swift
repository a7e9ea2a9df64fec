import Connectors
import Foundation
import POSIX
import Playback
import PTP
import TerminalKit
import Words

/// What the interpreter runs in: where it writes, Ctrl-C, whether a person types at a prompt, the process
/// environment (tests set their own), the clock transfers are paced on, and the prompt's history.
final class ShellSurroundings {
    let output: ShellOutput
    let interrupt: any InterruptSource
    /// True at an interactive prompt (a terminal on both ends), false for scripts and pipes.
    let isInteractive: Bool
    /// How pictures are drawn is detected from it (`TERM`, `KITTY_WINDOW_ID`, …), and ffmpeg is looked for
    /// on its `PATH`.
    var environment = ProcessInfo.processInfo.environment
    /// The clock transfers are paced and their rates measured on (`set limit-rate`); tests give a manual one.
    var transferClock: any WaitClock = MonotonicClock()
    /// The lines entered at the prompt, oldest first, for `history`; nil when there is no line editor.
    var historyProvider: (() -> [String])?

    init(output: ShellOutput, interrupt: any InterruptSource, isInteractive: Bool) {
        self.output = output
        self.interrupt = interrupt
        self.isInteractive = isInteractive
    }
}

/// Playing videos: the controller (engine, and the player showing it), which player `play` starts, and what
/// the machine offers a player (a display, a UTF-8 locale).
struct PlaybackParts {
    /// Shut down (player and endpoint ended, video forgotten) whenever the camera closes and on `quit`.
    let controller: PlaybackController
    let playerChoice: PlayerChoice
    let environment: PlaybackEnvironment
}

/// Where the lines being run come from: the scripts, innermost last (names and current lines, for error
/// messages), and how the run is ending.
struct RunState {
    var locations: [ScriptLocation] = []
    var quitRequested = false
    /// `quit` already warned of the jobs running.
    var quitWarned = false
    /// True while the config file runs: its failures are reported and the file goes on.
    var isRunningConfig = false
    /// True once standard output's reader went away (EPIPE): the shell ends quietly, as `ls | head` does.
    var outputClosed = false
}

/// The shell's own configuration and local side: aliases, the config file, `lcd -`'s folder, the PTP trace
/// every camera opened records into, and this run's Wi-Fi GUID when the state folder could not keep one.
struct LocalSide {
    /// The user's aliases (`alias NAME 'CMDS'`): name to body.
    var aliases: [String: String] = [:]
    /// Where `set --save` writes and the config file is read from (`ConfigFile`).
    var configPath: String?
    /// The local folder before the last `lcd`, for `lcd -`.
    var previousLocalFolder: String?
    /// Where every camera opened records its PTP containers (`--debug-ptp`); nil: no trace.
    var ptpTrace: PTPTrace?
    /// The GUID of this run, when the state folder could not keep this computer's own (said once).
    var unsavedWiFiIdentity: WiFiIdentity?
}
