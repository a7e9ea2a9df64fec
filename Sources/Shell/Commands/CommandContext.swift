import CommandKit
import Connectors
import MediaManager
import POSIX
import Playback
import TerminalGraphics
import TerminalKit
import Transfers
import Words

/// What a command's `run` may use, in place of the whole interpreter: the session state, the output, Ctrl-C,
/// one way to report, and the open camera (with what words name on it, `CommandSupport.swift`); a batch gets
/// only what it needs of it (`batchHost`). A command whose work needs more names a wider context as the type
/// of `run`'s context: `JobContext` (the jobs), `PlaybackContext` (the video being played), `HelpContext`,
/// `ConfigContext` and `SessionContext` (below).
/// The interpreter is each of them.
protocol CommandContext: AnyObject {
    var state: SessionState { get set }
    var output: ShellOutput { get }
    var interrupt: any InterruptSource { get }
    /// True at an interactive prompt, false for scripts and pipes.
    var isInteractive: Bool { get }
    /// The process environment (tests set their own).
    var environment: [String: String] { get }
    var dates: DateText { get }
    /// The open camera, nil when none is.
    var media: MediaSession? { get }
    /// The camera's work mode as last set or read, nil when unknown.
    var cameraMode: CameraMode? { get set }
    /// The clock transfers are paced and their rates measured on.
    var transferClock: any WaitClock { get }
    /// Who this computer was to the Wi-Fi camera opened last (its GUID and name), nil for other cameras.
    var wifiIdentityInUse: WiFiIdentity? { get }
    /// True in a script whose camera's card was listed by its open, before this command and no other:
    /// the listing is the card as it is now.
    var cardListedJustNow: Bool { get }

    /// One line on standard error, with the script's `FILE:LINE:` when in one.
    func report(_ message: String, severity: ReportSeverity)
    /// A command's failure; a camera that went away is closed.
    func reportFailure(of command: String, _ error: Error, hint: String)
    /// Runs requests to the camera of `session` so that Ctrl-C ends them.
    func interruptibly<T>(_ session: MediaSession, _ body: () throws -> T) throws -> T
    /// The camera went away during `command`: said with how to reconnect, and closed.
    func reportCameraGone(during command: String, _ error: Error)
}

extension CommandContext {
    func report(_ message: String) { report(message, severity: .error) }
    func reportFailure(of command: String, _ error: Error) { reportFailure(of: command, error, hint: "") }

    /// What a batch (`FetchBatch`, `ImportBatch`, `TetherDownload`) may use of the shell.
    var batchHost: any BatchHost { CommandHost(self) }
}

/// The shell as a batch's host (its output, Ctrl-C and reporting, and the session state kept in step), and
/// as the host of thumbnails drawn (the `images` setting, the environment).
final class CommandHost: BatchHost, PictureHost {
    let shell: any CommandContext

    init(_ shell: any CommandContext) {
        self.shell = shell
    }

    var output: ShellOutput { shell.output }
    var interrupt: any InterruptSource { shell.interrupt }
    var transferClock: any WaitClock { shell.transferClock }
    var rateLimit: UInt64? { shell.state.settings.rateLimit }
    var environment: [String: String] { shell.environment }
    var imageMode: ImageMode { shell.state.settings.images }
    var cameraMode: CameraMode? {
        get { shell.cameraMode }
        set { shell.cameraMode = newValue }
    }

    func report(_ message: String, severity: ReportSeverity) { shell.report(message, severity: severity) }
    func reportCameraGone(during command: String, _ error: Error) { shell.reportCameraGone(during: command, error) }
    func modeHint(for error: Error) -> String { shell.modeHint(for: error) }
    func fileFetched(_ file: MediaFile) { shell.state.fetchCompleted(file) }
    func fileStopped(_ file: MediaFile, at offset: UInt64) { shell.state.fetchStopped(file, at: offset) }
    func fileRemoved(path: String) { shell.state.fileRemoved(path: path) }
}

/// A command that starts, lists or waits for jobs, or must not touch what they hold.
protocol JobContext: CommandContext {
    var jobs: JobTable { get }
    func startJob(
        _ invocation: Invocation, files: [MediaFile], _ work: @escaping @Sendable (Job) -> Job.Ending
    ) throws -> CommandOutcome
    @discardableResult func sayEndedJobs() -> [Job.Ending]
    func waitForJobs(_ chosen: [Job]) -> Bool?
    func refuseFilesOfRunningJobs(_ files: [MediaFile], _ command: String) throws
}

/// A playback command: the engine and player, and the camera file loaded in them.
protocol PlaybackContext: CommandContext {
    var playback: PlaybackController { get }
    var loadedVideo: MediaFile? { get set }
    var playerChoice: PlayerChoice { get }
    var playbackEnvironment: PlaybackEnvironment { get }
}

/// `help`: the table of commands it describes.
protocol HelpContext: CommandContext {
    var table: CommandTable { get }
}

/// A command that changes the shell's own configuration: aliases, and settings saved to the config file.
protocol ConfigContext: CommandContext {
    /// The config file `--save` writes to, nil when there is none.
    var configPath: String? { get }
    var aliases: [String: String] { get set }
    func defineAlias(_ name: String, _ body: String) throws
}

/// A command that opens, closes, replays or leaves the session itself (`open`, `close`, `quit`, `source`,
/// `watch --reconnect`), or reads what the session kept (`history`, `lcd -`).
protocol SessionContext: JobContext {
    var openNote: String? { get }
    var quitRequested: Bool { get set }
    /// The scripts being run, outermost first.
    var locations: [ScriptLocation] { get }
    var historyProvider: (() -> [String])? { get }
    /// The local folder before the last `lcd`.
    var previousLocalFolder: String? { get set }
    func open(_ url: CameraURL) throws
    func closeCamera()
    func stopPlayback()
    func refuseWhileJobsRun(_ command: String) throws
    func runScript(_ source: LineSource, name: String) -> ScriptResult
}

extension Interpreter: JobContext, PlaybackContext, HelpContext, ConfigContext, SessionContext {}
