import CommandKit
import Connectors
import Failures
import Foundation
import MediaManager
import Playback
import POSIX
import PTP
import TerminalKit
import Thumbnails
import Transfers
import Words

/// How a line, or one command of it, ended.
public enum LineStatus: Sendable, Equatable {
    case success
    case failure
    /// Ctrl-C stopped it; the rest of the line (and of a script) does not run.
    case interrupted
    /// `quit` or `exit`.
    case quit
}

/// Runs commands: holds the open camera and the session state, checks each line against the command
/// table and calls the media manager. Errors are reported as one line on standard error, prefixed with
/// `FILE:LINE:` inside a script; a command never ends the program except `quit`.
public final class Interpreter {
    public let table: CommandTable
    public internal(set) var state: SessionState
    /// The open camera and everything of it, nil after `close` or when the camera went away.
    var camera: CameraSession?
    /// Where it writes, Ctrl-C, the environment, the transfer clock.
    let surroundings: ShellSurroundings
    /// The video being played and the player showing it.
    let video: PlaybackParts
    /// The scripts being run and how the run ends.
    var scripts = RunState()
    /// Aliases, the config file, `lcd -`, the PTP trace, this run's Wi-Fi GUID.
    var local = LocalSide()
    /// The transfers running in the background (`fetch ... &`).
    let jobs = JobTable()
    /// Names offered on Tab, from the cached catalog.
    public private(set) lazy var completion = SessionCompletion(interpreter: self)
    lazy var dates = DateText()

    // What the commands and the tests name, kept where it belongs above.

    /// The open camera's media session, nil after `close` or when the camera went away.
    public var media: MediaSession? { camera?.media }
    var output: ShellOutput { surroundings.output }
    var interrupt: any InterruptSource { surroundings.interrupt }
    /// True at an interactive prompt (a terminal on both ends), false for scripts and pipes.
    public var isInteractive: Bool { surroundings.isInteractive }
    /// The lines entered at the prompt, oldest first, for `history`; nil when there is no line editor.
    public var historyProvider: (() -> [String])? {
        get { surroundings.historyProvider }
        set { surroundings.historyProvider = newValue }
    }
    /// The process environment: how pictures are drawn is detected from it, ffmpeg is looked for on its PATH.
    var environment: [String: String] {
        get { surroundings.environment }
        set { surroundings.environment = newValue }
    }
    /// The clock transfers are paced and their rates measured on (`set limit-rate`); tests give a manual one.
    var transferClock: any WaitClock {
        get { surroundings.transferClock }
        set { surroundings.transferClock = newValue }
    }
    var playback: PlaybackController { video.controller }
    var playerChoice: PlayerChoice { video.playerChoice }
    var playbackEnvironment: PlaybackEnvironment { video.environment }
    /// The camera file `playback` has loaded.
    var loadedVideo: MediaFile? {
        get { camera?.loadedVideo }
        set { camera?.loadedVideo = newValue }
    }
    /// What the last `open` has to tell besides the camera it opened, nil when there was nothing.
    public var openNote: String? { camera?.openNote }
    /// Who this computer was to the Wi-Fi camera open, for `summary`.
    var wifiIdentityInUse: WiFiIdentity? { camera?.wifiIdentity }
    /// In a script, true from the moment `open` listed the card until the end of the next command.
    var cardListedJustNow: Bool { camera?.listedJustNow ?? false }
    /// The camera's work mode as last set or read (`mode`), nil when unknown or the camera has none: the
    /// prompt shows `(shoot)` while the camera gives no files.
    var cameraMode: CameraMode? {
        get { camera?.mode }
        set { camera?.mode = newValue }
    }
    /// Where every camera opened records its PTP containers (`--debug-ptp`); nil: no trace.
    public var ptpTrace: PTPTrace? {
        get { local.ptpTrace }
        set { local.ptpTrace = newValue }
    }
    var unsavedWiFiIdentity: WiFiIdentity? {
        get { local.unsavedWiFiIdentity }
        set { local.unsavedWiFiIdentity = newValue }
    }
    var locations: [ScriptLocation] {
        get { scripts.locations }
        set { scripts.locations = newValue }
    }
    var quitRequested: Bool {
        get { scripts.quitRequested }
        set { scripts.quitRequested = newValue }
    }
    var quitWarned: Bool {
        get { scripts.quitWarned }
        set { scripts.quitWarned = newValue }
    }
    var previousLocalFolder: String? {
        get { local.previousLocalFolder }
        set { local.previousLocalFolder = newValue }
    }
    /// The user's aliases (`alias NAME 'CMDS'`): name to body.
    public internal(set) var aliases: [String: String] {
        get { local.aliases }
        set { local.aliases = newValue }
    }
    /// Where `set --save` writes and the config file is read from (`ConfigFile`).
    public var configPath: String? {
        get { local.configPath }
        set { local.configPath = newValue }
    }
    /// True while the config file runs: its failures are reported and the file goes on.
    var isRunningConfig: Bool {
        get { scripts.isRunningConfig }
        set { scripts.isRunningConfig = newValue }
    }
    /// True once standard output's reader went away (EPIPE): the shell ends quietly, as `ls | head` does.
    public internal(set) var outputClosed: Bool {
        get { scripts.outputClosed }
        set { scripts.outputClosed = newValue }
    }

    /// Most nested `source` levels, against a script that sources itself.
    static let maximumScriptDepth = 16

    public init(
        output: ShellOutput, interrupt: any InterruptSource, settings: Settings = Settings(),
        isInteractive: Bool = false, table: CommandTable = .standard,
        playbackEnvironment: PlaybackEnvironment = .current
    ) {
        surroundings = ShellSurroundings(output: output, interrupt: interrupt, isInteractive: isInteractive)
        self.table = table
        state = SessionState(settings: settings)
        let playerChoice = PlayerChoice(setting: settings.player, interactive: isInteractive, environment: playbackEnvironment)
        video = PlaybackParts(
            controller: PlaybackController(player: playerChoice.launcher), playerChoice: playerChoice,
            environment: playbackEnvironment)
    }

    deinit {
        for job in jobs.running { job.cancellation.cancel() }
        for job in jobs.running { _ = job.waitForEnd(upTo: 60) }
        playback.shutdown()
        media?.close()
    }

    // MARK: - The camera

    /// Opens the camera at `url` and reads its file list; the current folder is the top of the card, whatever
    /// its layout, so that scripts name the same files on every camera. Only an open that succeeds replaces
    /// the camera in use: one that fails or is interrupted leaves it, with its folder, selection and edit
    /// mode, as it was. A camera that `url` may reach again (the same USB device, claimed by one session at
    /// a time; a Wi-Fi camera at the same host) is closed first, and opened again where it was when `url`
    /// fails. Throws a message-bearing error when it cannot.
    public func open(_ url: CameraURL) throws {
        guard let current = media,
            CameraConnector.mayReachSameDevice(url, asOpen: current.url, location: current.camera.location)
        else { return try replaceCamera(with: url) }
        let earlier = state
        closeCamera()
        do {
            try replaceCamera(with: url)
        } catch {
            reopen(current.url, as: earlier)
            throw error
        }
    }

    /// Opens `url` and, once its file list is read, makes it the camera in use in place of the one open.
    /// `reopening` a camera the user had already: what its open said then is not said again.
    private func replaceCamera(with url: CameraURL, reopening: Bool = false) throws {
        var options = CameraConnector.Options()
        options.timeout = state.settings.timeout
        options.writableFolder = state.settings.writable
        options.videoFrames = KeyframeVideoFrames.find(environment: environment)
        options.trace = ptpTrace
        // At a prompt a `usb:` that matches several cameras opens the first and says so; a script must
        // name the one it means, so there it is an error that lists them.
        options.opensFirstOfSeveral = isInteractive
        let choice = ChoiceNote()
        options.onUSBChoice = { found in
            let sentence = USBChoiceWords.sentence(
                matched: found.matched, selector: found.selectorText, opened: found.openedCamera,
                alternatives: found.alternatives)
            choice.text.withLock { $0 = sentence }
        }
        let waiting = ChoiceNote()
        if url.isWiFi { prepareWiFi(&options, waitingNote: waiting) }
        ptpTrace?.note("open \(ptpTrace?.redactor == nil ? url.description : url.redactedDescription)")
        let session = try openInterruptibly(url, options: options) {
            // Said from this thread, the one that writes: the open's thread only leaves the sentence.
            if let sentence = waiting.text.withLock({ text in defer { text = nil }; return text }) { output.error(sentence) }
        }
        do {
            try interruptibly(session) { try session.catalog.ensureLoaded() }
        } catch {
            session.close()
            throw error
        }
        closeCamera()
        var openNote = choice.text.withLock { $0 }.map(SafeText.display)
        if case .folder(let path) = url, !(session.catalog.contents(of: "") ?? []).contains(where: {
            $0.isFolder && $0.name.uppercased() == "DCIM"
        }) {
            // A folder that is not a card's: say so, rather than open it silently as if it were one.
            let note = "no DCIM folder in \(SafeText.display(path)): its files and folders are shown as they are"
            openNote = openNote.map { $0 + "; " + note } ?? note
        }
        camera = CameraSession(media: session, openNote: openNote, wifiIdentity: url.isWiFi ? options.identity : nil)
        state.cameraClosed()
        if let unreadable = session.catalog.unreadable {
            // At a prompt, said at once; a script hears it as the error of its first command that lists.
            if isInteractive { report(ErrorWords.sentence(for: unreadable), severity: .warning) }
        } else {
            reportCatalogWarnings(session.catalog)
        }
        if !reopening {
            reportUSBLink(session)
            reportCameraClock(session)
        }
        lendLedgerTimes(session)
        // At a prompt any time may pass before the next command; in a script, none does.
        camera?.listedJustNow = !isInteractive
    }

    /// Opens `url` again, after the open that was to replace it failed, with the folder, selection and edit
    /// mode of `earlier` as far as the card still has them; said when it cannot be.
    private func reopen(_ url: CameraURL, as earlier: SessionState) {
        interrupt.clear()  // a Ctrl-C that stopped the other open does not stop this one
        do {
            try replaceCamera(with: url, reopening: true)
        } catch {
            report("\(URLText.inMessage(url.description)) could not be opened again: \(Interpreter.message(for: error))")
            return
        }
        guard let catalog = media?.catalog else { return }
        state.reopened(as: earlier, lookup: { catalog.file(atPath: $0) }, folderExists: { catalog.isFolder($0) })
    }

    /// Uses an already open session (tests, and cameras opened by other means).
    public func attach(_ session: MediaSession) {
        closeCamera()
        camera = CameraSession(media: session)
        state.cameraClosed()
    }

    /// Closes the camera, if one is open; the session state and the video being played go with it.
    public func closeCamera() {
        // Jobs need the camera: they stop at their next chunk, each keeping its .part.
        if !jobs.running.isEmpty { killJobs() }
        stopPlayback()
        media?.close()
        camera = nil
        state.cameraClosed()
    }

    // MARK: - Lines

    /// Runs one line: its commands in order, each checked just before it runs, as a POSIX shell does (an
    /// unknown word later in the line does not stop the commands before it). A failure stops the rest of
    /// the line (unless the command has a leading `-`, or `errexit` is off).
    public func run(line: String) -> LineStatus {
        if let command = LocalShell.command(in: line) {
            // `!CMD`: the whole rest of the line is the local shell's, `;` and quotes included.
            let invocation = Invocation(
                command: table.command("!"), name: Word("!"), arguments: command.isEmpty ? [] : [Word(command)])
            return execute(invocation)
        }
        var statements: [Statement]
        do {
            statements = try Tokenizer.statements(in: line)
        } catch {
            report(atColumn(error.column, error.message))
            return .failure
        }
        do {
            statements = try expandingAliases(statements)
        } catch {
            report(describe(error))
            return .failure
        }
        var failed = false
        for statement in statements {
            if interrupt.isPending { return .interrupted }
            interrupt.clear()
            let status: LineStatus
            let ignoresFailure = statement.ignoresFailure
            do throws(UsageError) {
                status = execute(try checkedInvocation(for: statement))
            } catch {
                report(describe(error) + quoteHint(statement.words.dropFirst()))
                status = .failure
            }
            switch status {
            case .success: continue
            case .failure:
                if ignoresFailure { continue }
                failed = true
                if state.settings.errexit && !isRunningConfig { return .failure }
            case .interrupted: return .interrupted
            case .quit: return .quit
            }
        }
        return failed ? .failure : .success
    }

    /// The statement checked against its command's spec; `&` only for the commands that run as jobs.
    private func checkedInvocation(for statement: Statement) throws(UsageError) -> Invocation {
        try table.invocation(for: statement)
    }

    /// A usage error as one line: `column 7: fetch: unknown option -x` in a script, without the column at a
    /// prompt (the line was just typed, right above).
    func describe(_ error: UsageError) -> String {
        atColumn(error.column, error.description)
    }

    /// `message` with `column N: ` before it inside a script, where the line is not on the screen.
    func atColumn(_ column: Int?, _ message: String) -> String {
        guard let column, !locations.isEmpty else { return message }
        return "column \(column): \(message)"
    }

    /// Runs one checked command (the `ShellCommand` the table holds for it); reports its failure, and a
    /// failure to write its output (`OutputCheck`).
    func execute(_ invocation: Invocation) -> LineStatus {
        let status = executeUnchecked(invocation)
        return checkOutput(of: invocation.name.text) ?? status
    }

    private func executeUnchecked(_ invocation: Invocation) -> LineStatus {
        defer { camera?.listedJustNow = false }
        guard let command = table.implementation(of: invocation.id) as? any ShellCommand else {
            report("\(invocation.name.text): not implemented")
            return .failure
        }
        do {
            switch try run(command, invocation) {
            case .success: return quitRequested ? .quit : .success
            case .failed:
                let hint = quoteHint(invocation.arguments)
                if !hint.isEmpty { report("hint: " + hint.dropFirst(2), severity: .notice) }
                return quitRequested ? .quit : .failure
            case .interrupted: return .interrupted
            }
        } catch let interrupted as Interrupted {
            report("\(invocation.name.text): \(interrupted)", severity: .notice)
            return .interrupted
        } catch {
            reportFailure(of: invocation.name.text, error, hint: quoteHint(invocation.arguments))
            return .failure
        }
    }

    /// Runs `command` with the interpreter as the context it asks for (every context protocol is one the
    /// interpreter conforms to; `CommandTableTests` checks each command of the table).
    private func run<Command: ShellCommand>(_ command: Command, _ invocation: Invocation) throws -> CommandOutcome {
        guard let context = self as? Command.Context else {
            throw CommandError("not runnable here (it asks for \(Command.Context.self))")
        }
        return try command.run(invocation, in: context)
    }

    // MARK: - Reporting

    typealias Severity = ReportSeverity

    /// One line on standard error: `FILE:LINE: error: message` inside a script, `error: message` at the prompt.
    func report(_ message: String, severity: Severity = .error) {
        let safe = SafeText.display(message)
        let label = severity == .notice ? "" : "\(severity.rawValue): "
        if let location = locations.last {
            output.error("\(location.name)\(location.showsLine ? ":\(location.line)" : ""): \(label)\(safe)")
        } else {
            output.error(label + safe)
        }
    }

    /// Reports a command's failure; a camera that went away is closed, so that `open` can start afresh.
    func reportFailure(of command: String, _ error: Error, hint: String = "") {
        if Self.isDisconnect(error), media != nil {
            reportCameraGone(during: command, error)
            return
        }
        report("\(command): \(Self.message(for: error))" + modeHint(for: error) + hint)
    }

    /// Says that the camera went away during `command` (because of `error`), with how to reconnect, and
    /// closes it so that `open` can start afresh.
    func reportCameraGone(during command: String, _ error: Error) {
        let url = media.map { "\($0.url)" } ?? ""
        closeCamera()
        report(
            "\(command): the camera went away (\(Self.message(for: error))); it is closed now, "
                + "'open \(url)' reconnects")
    }

    /// True when `error` says the connection to the camera is gone.
    static func isDisconnect(_ error: Error) -> Bool { error.failureCategory == .disconnected }

    /// The words for an error, whatever layer it came from (`ErrorWords`).
    static func message(for error: Error) -> String { ErrorWords.sentence(for: error) }
}

/// A script being run, for `FILE:LINE:` in messages.
struct ScriptLocation {
    let name: String
    var line: Int
    /// False for the line a program made (`mediashell import`): its errors name the program only.
    var showsLine = true
}

/// Where the connector's note about a choice among several USB cameras lands while `open` runs.
final class ChoiceNote: Sendable {
    let text = Locked<String?>(nil)
}
