import CommandKit
import Connectors
import Foundation
import MediaManager
import POSIX
import PTP
import TerminalKit

/// `mediashell mount [--camera URL] [--read-only] [--debug-ptp FILE] DIR`: the camera's card as a folder
/// (FUSE), in the foreground until it is unmounted (`fusermount3 -u DIR`) or SIGINT/SIGTERM arrives; one
/// log line per event worth a line on standard error.
public struct MountCommand {
    public var camera: String?
    public var readOnly = false
    public var mountPoint = ""
    public var traceFile: String?
    public var traceRedacted = false
    /// `--help` was given: print the help and exit.
    public var wantsHelp = false

    /// `mediashell mount`, declared once: its parser, `--help`, the man page and the bash completion read it.
    public static let spec = CommandSpec(
        "mount", area: .program,
        options: [
            OptionSpec("camera", long: "camera", value: ArgumentSpec("URL", .cameraURL),
                "mount the camera at URL (usb:, ptpip:HOST, dir:PATH, sim:); else the USB camera attached"),
            OptionSpec("read-only", short: "r", long: "read-only", "refuse every change (EROFS): no new files, deletes or folders"),
            OptionSpec("debug-ptp", long: "debug-ptp", value: ArgumentSpec("FILE", .localPath),
                "write every PTP container exchanged with the camera to FILE"),
            OptionSpec("debug-ptp-redact", long: "debug-ptp-redact", "replace file names, serial numbers and labels in that trace"),
            OptionSpec("help", short: "h", long: "help", "print this help and exit"),
        ],
        arguments: [ArgumentSpec("DIR", .localFolder, .one)],
        summary: "the camera's card as the folder DIR (FUSE), until fusermount3 -u DIR or Ctrl-C",
        details: """
            Every program can then use the card: ls, cp -r, rsync, a photo manager, a player. Names are those \
            the shell shows (a camera with several stores has one top folder per store). Files are read \
            through partial reads, with read-ahead on sequential reads and a cache of 64 MiB in memory \
            (nothing is written to /tmp). Where the camera takes uploads, a new file is sent when it is \
            closed (a failed send is the close's error, and leaves nothing on the card); rm deletes, mkdir \
            and rmdir make and remove folders. Renaming, changing a file in place and chmod are refused \
            (ENOTSUP, EPERM): a camera cannot do them. Runs in the foreground; SIGTERM, Ctrl-C or \
            fusermount3 -u DIR unmounts.
            """,
        examples: ["mediashell mount ~/camera", "mediashell mount --camera ptpip:192.168.1.1 --read-only ~/camera"])

    static let helpHint = " (try 'mediashell mount --help')"

    public init(arguments: [String]) throws {
        // Help is answered before DIR is asked for (`mediashell mount --help` names no folder).
        if arguments.prefix(while: { $0 != "--" }).contains(where: { $0 == "--help" || $0 == "-h" }) {
            wantsHelp = true
            return
        }
        let invocation: Invocation
        do {
            invocation = try Self.spec.parse(commandLine: arguments)
        } catch {
            throw ArgumentError("mount: \(error.message)\(Self.helpHint)")
        }
        if invocation.has("help") {
            wantsHelp = true
            return
        }
        camera = invocation.value(of: "camera")?.text
        readOnly = invocation.has("read-only")
        traceFile = invocation.value(of: "debug-ptp")?.text
        traceRedacted = invocation.has("debug-ptp-redact")
        if traceRedacted && traceFile == nil { throw ArgumentError("mount: --debug-ptp-redact needs --debug-ptp FILE\(Self.helpHint)") }
        mountPoint = invocation.arguments.first?.text ?? ""
    }

    /// Mounts, serves until unmounted, and returns the exit status: 0 after a clean unmount, 1 when the
    /// camera or the mount could not be had, 2 for a bad command line.
    public func run() -> Int32 {
        let log: @Sendable (String) -> Void = { Console.error("mount: " + $0) }
        let point = LocalDisk.expandingTilde(mountPoint)
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: point, isDirectory: &isFolder), isFolder.boolValue else {
            log("\(SafeText.display(mountPoint)): no such folder to mount on")
            return 2
        }
        guard access("/dev/fuse", R_OK | W_OK) == 0 else {
            log("/dev/fuse is missing or not usable by this user: FUSE mounts cannot be made here")
            return 1
        }
        let environment = ProcessInfo.processInfo.environment
        guard let state = StateLocation.folder(environment: environment).map({ $0 + "/mount" }) else {
            log("neither $XDG_STATE_HOME nor $HOME is set: there is nowhere private to spool new files")
            return 1
        }
        do {
            try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            log("cannot make the state folder \(state): \(error)")
            return 1
        }

        let url: CameraURL
        do {
            url = try camera.map { try CameraURL(parsing: $0) } ?? .usbFirst
        } catch {
            log("\(error)")
            return 2
        }
        var options = CameraConnector.Options()
        let wifi = WiFiState(environment: environment)
        options.wifiState = wifi
        if let identity = try? wifi?.identity() { options.identity = identity }
        options.opensFirstOfSeveral = false
        if let traceFile {
            do {
                let trace = try PTPTrace(path: LocalDisk.expandingTilde(traceFile), redact: traceRedacted)
                trace.note("mediashell mount PTP trace, begun \(ISO8601DateFormatter().string(from: Date()))")
                trace.note("columns: seconds since start, > to the camera / < from it / ! failure, container, details")
                trace.note("open \(traceRedacted ? url.redactedDescription : url.description)")
                options.trace = trace
            } catch {
                log("cannot write the trace \(SafeText.display(traceFile)): \(error)")
                return 1
            }
        }

        let session: MediaSession
        do {
            session = try MediaSession.open(url, options: options)
        } catch {
            log("cannot open \(url): \(error)")
            return 1
        }
        defer { session.close() }
        do {
            try session.catalog.ensureLoaded()
        } catch {
            log("cannot list the card of \(url): \(error)")
            return 1
        }
        // A card folder announces its changes only when asked to watch.
        session.camera.watchForChanges()
        let summary = session.camera.summary
        let fileSystem = CameraFileSystem(session: session, readOnly: readOnly, mountPoint: point, spoolFolder: state, log: log)
        if !summary.canReadRanges {
            log("this camera cannot read part of a file: each file is read whole into memory when opened, "
                + "and files over \(fileSystem.wholeFileLimit >> 20) MiB are refused (EFBIG)")
        }
        var mountOptions = ["fsname=mediashell", "subtype=mediashell", "default_permissions"]
        if !fileSystem.changesAllowed { mountOptions.append("ro") }
        let bridge = FuseBridge(operations: fileSystem)
        do {
            try bridge.run(mountPoint: point, options: mountOptions) {
                let files = session.catalog.fileCount
                log("\(url) (\(summary.model.isEmpty ? "camera" : summary.model)) on \(point): \(files) files; \(fileSystem.accessWords); "
                    + "fusermount3 -u \(point) or Ctrl-C unmounts")
            }
        } catch {
            fileSystem.finishReading()
            log("\(error)")
            return 1
        }
        // No request of the mount's is left on the link when the session closes.
        fileSystem.finishReading()
        // With a trace asked for, what the kernel asked of the mount too: a task's cost in calls.
        if traceFile != nil { log("FUSE calls: \(bridge.callSummary)") }
        if let gone = fileSystem.goneBecause {
            log("unmounted \(point) (the camera had gone: \(gone))")
            return 1
        }
        log("unmounted \(point)")
        return 0
    }
}
