import CommandKit
import Connectors
import Foundation
import MediaManager
import POSIX
import TerminalKit
import Words

/// The shell's wiring: the camera to start with, where lines come from (the line editor at a terminal,
/// or a script, `-c` text or piped input), and the exit status.
public enum Shell {
    /// The version `--version`, the banner and traces show.
    public static let version = "0.1.0"

    /// Runs the shell as `arguments` ask; returns the exit status (0 when every command succeeded). After
    /// SIGTERM or SIGHUP: the running command stopped as on Ctrl-C, the camera closed, 128 + the signal.
    public static func run(_ arguments: ShellArguments) -> Int32 {
        run(arguments, heard: nil)
    }

    /// `run`, with every line the commands write (results, notes and errors) also handed to `heard`.
    /// `commandsName`: what the errors of `-c` text are said to come from (a program's line, without its
    /// line number), `-c:LINE` when nil.
    static func run(_ arguments: ShellArguments, heard: ((String) -> Void)?, commandsName: String? = nil) -> Int32 {
        // A reader that went away is EPIPE on the write, handled after each command (`checkOutput`), rather
        // than a signal that ends the process before the camera session is closed.
        signal(SIGPIPE, SIG_IGN)
        let interrupt: Interrupt
        do {
            interrupt = try Interrupt.install()
        } catch {
            Console.error("mediashell: \(error)")
            return 1
        }
        let status = run(arguments, interrupt: interrupt, heard: heard, commandsName: commandsName)
        guard let signal = interrupt.terminationSignal else { return status }
        Console.error("mediashell: \(signal == SIGHUP ? "SIGHUP" : "SIGTERM"): the camera session is closed")
        return 128 + signal
    }

    private static func run(
        _ arguments: ShellArguments, interrupt: Interrupt, heard: ((String) -> Void)?, commandsName: String?
    ) -> Int32 {
        let isScript = arguments.scriptFile != nil || arguments.commands != nil
        let interactive = !isScript && Terminal.isInteractive

        var settings = Settings()
        for (name, value) in [("download-dir", arguments.downloadFolder), ("ptpip-guid", arguments.ptpipGUID)] {
            guard let value else { continue }
            do {
                try settings.set(name, to: value)
            } catch {
                Console.error("mediashell: --\(name): \(error)")
                return 2
            }
        }
        var editor: LineEditor?
        let output = StandardOutput(
            showsProgress: interactive, width: { editor?.terminalWidth ?? Terminal.columns ?? 80 })
        let interpreter = Interpreter(
            output: heard.map { HeardOutput(output, heard: $0) } ?? output, interrupt: interrupt, settings: settings,
            isInteractive: interactive)
        if let path = arguments.ptpTraceFile {
            do {
                interpreter.ptpTrace = try PTPTraceFile.start(
                    path: path, redacted: arguments.ptpTraceRedacted, program: "mediashell \(version)")
            } catch let error as SystemError {
                Console.error("mediashell: --debug-ptp: cannot write the PTP trace \(error.path ?? path): \(error.reason)")
                return 2
            } catch {
                Console.error("mediashell: --debug-ptp: \(error)")
                return 2
            }
        }
        defer {
            interpreter.historyProvider = nil
            output.flush()
            interpreter.closeCamera()
        }

        interpreter.configPath = ConfigFile.path(environment: ProcessInfo.processInfo.environment)
        if !arguments.skipsConfig, let path = interpreter.configPath { interpreter.runConfig(at: path) }
        // The command line wins over the config file.
        if arguments.downloadFolder != nil { interpreter.state.settings.downloadFolder = settings.downloadFolder }
        if arguments.ptpipGUID != nil { interpreter.state.settings.ptpipGUID = settings.ptpipGUID }
        if arguments.writable { interpreter.state.settings.writable = true }
        let camera = arguments.camera ?? (interpreter.state.settings.camera.isEmpty ? nil : interpreter.state.settings.camera)
        let report: (String) -> Void = { line in
            Console.error(line)
            heard?(line)
        }
        if !openFirstCamera(camera, interpreter, interactive: interactive, report: report) && !interactive {
            return interrupt.isPending ? ScriptResult.interrupted.exitStatus : 1
        }

        if let path = arguments.scriptFile {
            let reader: PlainLineReader
            do {
                reader = try PlainLineReader(path: LocalDisk.expandingTilde(path), interrupt: interrupt)
            } catch {
                Console.error("mediashell: cannot read \(SafeText.display(path)): \(String(cString: strerror(error.errno)))")
                return 1
            }
            return exitStatus(interpreter.finishScript(interpreter.runScript(reader, name: path)), interpreter)
        }
        if let commands = arguments.commands {
            return exitStatus(interpreter.finishScript(interpreter.runScript(
                        TextLineSource(commands), name: commandsName ?? "-c", showsLine: commandsName == nil)), interpreter)
        }
        if !interactive {
            return exitStatus(
                interpreter.finishScript(interpreter.runScript(PlainLineReader(interrupt: interrupt), name: "stdin")), interpreter)
        }

        let engine = CompletionEngine(table: interpreter.table)
        do {
            editor = try LineEditor(
                historyFile: HistoryLocation.path(environment: ProcessInfo.processInfo.environment),
                interrupt: interrupt, prompt: { [unowned interpreter] in interpreter.prompt },
                completer: { [unowned interpreter] line, cursor in
                    engine.complete(line, cursor: cursor, context: interpreter.completion)
                })
        } catch {
            Console.error("mediashell: cannot start the line editor (\(error)); reading plain lines")
            return interpreter.runInteractive(PlainLineReader(interrupt: interrupt))
        }
        guard let editor else { return 1 }
        interpreter.historyProvider = { [unowned editor] in editor.historyEntries }
        var banner = "mediashell \(version)"
        if let media = interpreter.media {
            banner += ": " + SessionWords.opened(media.camera.summary, fileCount: media.catalog.fileCount)
        }
        output.note(banner + "; 'help' lists the commands, Ctrl-D quits")
        if let note = interpreter.openNote { output.note(note) }
        if interpreter.media?.url == .simulator(path: nil) {
            output.note("This is the DEMO card (sim:), not a camera of yours: 'open URL' opens one, 'devices' lists them")
        }
        interpreter.completion.prepare()
        return interpreter.runInteractive(editor)
    }

    /// A script's exit status; 141 (128 + SIGPIPE, what a shell reports for `ls | head -1`) when standard
    /// output's reader went away and the script ended there quietly.
    static func exitStatus(_ result: ScriptResult, _ interpreter: Interpreter) -> Int32 {
        interpreter.outputClosed ? 128 + SIGPIPE : result.exitStatus
    }

    /// Opens `--camera URL`, or else the first USB camera; with none attached, the demo camera at an
    /// interactive prompt (whose banner says so), and an error for a script: a cron job never imports demo
    /// files by accident. Returns false when no camera was opened (reported on standard error).
    static func openFirstCamera(
        _ requested: String?, _ interpreter: Interpreter, interactive: Bool, report: (String) -> Void = { Console.error($0) }
    ) -> Bool {
        if let requested {
            do {
                try interpreter.open(try CameraURL(parsing: requested))
                return true
            } catch let interrupted as Interrupted {
                report("mediashell: opening \(SafeText.display(requested)): \(interrupted)")
                return false
            } catch {
                report("mediashell: cannot open \(URLText.inMessage(requested)): \(Interpreter.message(for: error))")
                return false
            }
        }
        var attachedButFailed = false
        do {
            try interpreter.open(.usbFirst)
            return true
        } catch {
            // A camera is attached but did not open (several, and a script must name one; in use by
            // another program): say why, rather than that there is none.
            attachedButFailed = !DeviceDiscovery.usbCameras().isEmpty
            if attachedButFailed {
                report("mediashell: \(Interpreter.message(for: error))")
                if !interactive { return false }
            } else if !interactive {
                report("mediashell: \(noCameraMessage)")
                return false
            }
        }
        do {
            try interpreter.open(.simulator(path: nil))
        } catch {
            report("mediashell: no USB camera, and the demo camera failed: \(Interpreter.message(for: error))")
            return false
        }
        report(
            attachedButFailed
                ? "mediashell: opened the built-in DEMO camera (sim:) instead; its files are not yours"
                : "mediashell: no camera found; this is the built-in DEMO camera (sim:), its files are not yours")
        return true
    }

    /// What a script hears when no camera is attached and none was named.
    static let noCameraMessage = "no camera found (use --camera sim: for the demo card)"

    /// `mediashell import`: the shell's `import` `line` run on `camera` (else the camera the shell would
    /// open), as a script; its exit status, and every line it wrote.
    static func runImport(camera: String?, line: String, skipsConfig: Bool) -> (status: Int32, heard: [String]) {
        let words = (camera.map { ["--camera", $0] } ?? []) + ["-c", line] + (skipsConfig ? ["-n"] : [])
        let arguments: ShellArguments
        do {
            arguments = try ShellArguments(words)
        } catch {
            Console.error(error.description)
            return (2, [error.description])
        }
        let heard = Locked<[String]>([])
        let status = run(arguments, heard: { text in heard.withLock { $0.append(text) } }, commandsName: "mediashell import")
        return (status, heard.withLock { $0 })
    }

    /// The first problem the shell's parser finds in an `import` line, nil when it reads.
    static func checkImportLine(_ line: String) -> String? {
        do {
            _ = try CommandTable.standard.invocations(for: line)
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// `mediashell verify [--repair] [DIR...]`: the `verify` command, with no camera, from the command line;
    /// 0 when every copy is as recorded (or, with `repair`, was repaired), 1 otherwise, 130 after Ctrl-C.
    public static func verify(_ folders: [String], repair: Bool = false) -> Int32 {
        let interrupt: Interrupt
        do {
            interrupt = try Interrupt.install()
        } catch {
            Console.error("mediashell: \(error)")
            return 1
        }
        let output = StandardOutput(showsProgress: Terminal.isInteractive, width: { Terminal.columns ?? 80 })
        let interpreter = Interpreter(output: output, interrupt: interrupt, settings: Settings())
        defer { output.flush() }
        let line = (["verify"] + (repair ? ["--repair", "--"] : ["--"]) + folders.map(LocalShell.quoted)).joined(separator: " ")
        switch interpreter.run(line: line) {
        case .success, .quit: return 0
        case .failure: return 1
        case .interrupted: return ScriptResult.interrupted.exitStatus
        }
    }

    /// `mediashell --release URL`: asks gvfs to let go of the USB camera, says what it did and who still
    /// holds it; 0 when the camera is free, 1 when not (or no such camera).
    public static func release(_ text: String) -> Int32 {
        do {
            let release = try CameraConnector.releaseUSB(try CameraURL(parsing: text))
            for line in release.lines { print(SafeText.display(line)) }
            return release.isFree ? 0 : 1
        } catch {
            Console.error("mediashell: --release \(SafeText.display(text)): \(Interpreter.message(for: error))")
            return 1
        }
    }

    public static func listDevices(wifiOnly: Bool = false) -> Int32 {
        for line in DeviceDiscovery.lines(wifiOnly: wifiOnly).lines { print(line) }
        return 0
    }
}
