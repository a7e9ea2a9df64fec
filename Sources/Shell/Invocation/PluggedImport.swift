import CommandKit
import Connectors
import Foundation
import MediaManager
import POSIX
import TerminalKit

/// `mediashell import --plugged NAME`: what the service runs when udev announces a device. A USB camera is
/// opened as `usb:BUS,ADDR`; a card's filesystem is waited for until the desktop (or udisksctl) mounts it,
/// and imported as `dir:FOLDER` when it has a DCIM folder; anything else is left alone. Its lines go to
/// standard output (the journal), its counts to a desktop notification; `--eject` unmounts the card.
struct PluggedImport {
    let program: ImportProgram
    let environment: [String: String]
    /// How long a card may take to be mounted by the desktop before udisksctl is asked to.
    var automountSeconds = 15.0

    init(program: ImportProgram, environment: [String: String]) {
        self.program = program
        self.environment = environment
        if let text = environment["MEDIASHELL_AUTOMOUNT_SECONDS"], let seconds = Double(text), seconds >= 0 {
            automountSeconds = seconds
        }
    }

    private var system: PluggedDevice.System { PluggedDevice.System(environment: environment) }

    func run(_ name: String) -> Int32 {
        let device: PluggedDevice
        do {
            device = try PluggedDevice(name: name, system: system)
        } catch .leftAlone(let reason) {
            say("\(PluggedError.leftAlone(reason))")
            return 0
        } catch {
            say("\(error)")
            return 1
        }
        if let serial = program.invocation.value(of: .serial)?.text, !device.matches(serial: serial) {
            say("\(SafeText.display(device.title)) (\(name)) is not the device --serial \(SafeText.display(serial)) names: left alone")
            return 0
        }
        let camera: String
        var mountPoint: String?
        switch device.kind {
        case .camera(let bus, let address, _):
            camera = String(format: "usb:%03d,%03d", bus, address)
            releaseFromGVFS(camera)
        case .card(let node, let number, _, _):
            let point: String
            do {
                point = try mount(node: node, number: number, name: name)
            } catch {
                say("\(error)")
                notify("mediashell could not import \(device.title)", "\(error)")
                return 1
            }
            guard Self.hasDCIM(point) else {
                say("\(SafeText.display(point)) has no DCIM folder: not a camera's card, left alone")
                return 0
            }
            mountPoint = point
            camera = "dir:" + point
        }
        say("importing from \(SafeText.display(device.title)) (\(camera))")
        let (status, heard) = Shell.runImport(camera: camera, line: program.importLine, skipsConfig: program.skipsConfig)
        var ejected: String?
        if program.invocation.has(.eject) {
            if status != 0 {
                say("not ejected: the import did not succeed (exit status \(status))")
            } else if case .card(let node, _, _, _) = device.kind, let mountPoint {
                ejected = eject(node: node, mountPoint: mountPoint)
            } else {
                ejected = "\(camera) released"
                say(ejected!)
            }
        }
        let (title, body) = Self.notification(status: status, heard: heard, device: device.title, ejected: ejected)
        notify(title, body)
        return status
    }

    /// A desktop's gvfs opens a camera as it appears (its gphoto2 or MTP backend): asked to let go first,
    /// as `--release` asks. Nothing else that holds it is touched; the open then names it.
    private func releaseFromGVFS(_ camera: String) {
        guard let url = try? CameraURL(parsing: camera), let release = try? CameraConnector.releaseUSB(url),
            !release.requests.isEmpty
        else { return }
        for line in release.lines { say(SafeText.display(line)) }
    }

    /// A card folder of a camera: DCIM in any case (DCF says upper case; some readers show lower).
    static func hasDCIM(_ folder: String) -> Bool {
        (LocalDisk.names(in: folder) ?? []).contains { $0.uppercased() == "DCIM" && LocalDisk.isDirectory(folder + "/" + $0) }
    }

    /// Where the card is mounted: by the desktop within `automountSeconds`, else by udisksctl (as the user,
    /// under /media/USER, as the desktop would).
    private func mount(node: String, number: String, name: String) throws(PluggedError) -> String {
        if let point = PluggedDevice.waitForMount(of: number, table: system.mountTable, until: .after(automountSeconds)) {
            return point
        }
        guard let udisksctl = findExecutable("udisksctl", path: environment["PATH"]) else {
            throw .notMounted(name, seconds: Int(automountSeconds), mounter: nil)
        }
        say("\(node) was not mounted within \(Int(automountSeconds)) s: asking udisksctl")
        let said = Self.runTool(udisksctl, ["mount", "--no-user-interaction", "-b", node])
        if let point = PluggedDevice.waitForMount(of: number, table: system.mountTable, until: .after(5)) { return point }
        throw .notMounted(name, seconds: Int(automountSeconds), mounter: "udisksctl mount: \(said)")
    }

    /// Unmounts the card and powers its reader off (udisksctl), else unmounts it (umount); what happened.
    private func eject(node: String, mountPoint: String) -> String {
        LocalDisk.syncFilesystem(containing: mountPoint)
        let text: String
        if let udisksctl = findExecutable("udisksctl", path: environment["PATH"]) {
            let unmounted = Self.runTool(udisksctl, ["unmount", "--no-user-interaction", "-b", node])
            if LocalDisk.mountPointStillThere(mountPoint, table: system.mountTable) {
                text = "\(node) is still mounted at \(SafeText.display(mountPoint)): \(unmounted)"
            } else {
                let off = Self.runTool(udisksctl, ["power-off", "--no-user-interaction", "-b", node])
                text = "\(node) unmounted from \(SafeText.display(mountPoint))" + (off.isEmpty ? " and powered off: the card can be taken out" : " (power-off: \(off))")
            }
        } else if let umount = findExecutable("umount", path: environment["PATH"] ?? "/usr/bin:/bin") {
            let said = Self.runTool(umount, [mountPoint])
            text = LocalDisk.mountPointStillThere(mountPoint, table: system.mountTable)
                ? "\(node) is still mounted at \(SafeText.display(mountPoint)): \(said.isEmpty ? "umount refused" : said)"
                : "\(node) unmounted from \(SafeText.display(mountPoint))"
        } else {
            text = "\(node) stays mounted: neither udisksctl nor umount is here"
        }
        say(text)
        return text
    }

    /// The notification's title and body: the import's counts (its summary line without the paths of its
    /// manifests), or the error it ended with.
    static func notification(status: Int32, heard: [String], device: String, ejected: String?) -> (String, String) {
        let summary = heard.last { $0.hasPrefix("import: ") && $0.contains(" fetched, ") }
        guard status == 0, let summary else {
            let problem = heard.last { !$0.hasPrefix("import: ") } ?? heard.last ?? "exit status \(status)"
            return ("mediashell: the import from \(device) failed", problem + "\nSee: journalctl --user -u 'mediashell-plugged@*'")
        }
        var parts = String(summary.dropFirst("import: ".count)).components(separatedBy: "; ")
        parts.removeAll { $0.hasPrefix("checksums in ") || $0.hasPrefix("ASC MHL in ") }
        var body = parts.joined(separator: "; ")
        for line in heard where line.hasPrefix("import: ") && line.contains(" already imported from ") {
            body += "\n" + line.dropFirst("import: ".count)
        }
        if let ejected { body += "\n" + ejected }
        return ("mediashell: imported from \(device)", body)
    }

    /// A line of the service's log (standard output: the journal).
    private func say(_ text: String) {
        // Straight to the descriptor, as the shell's own output goes: the lines stay in order in the journal.
        try? writeAll(1, Array("mediashell import: \(text)\n".utf8))
    }

    /// A desktop notification, where notify-send is installed (libnotify-bin); said in the log either way.
    private func notify(_ title: String, _ body: String) {
        guard let notifySend = findExecutable("notify-send", path: environment["PATH"]) else {
            say("no notify-send (Debian package libnotify-bin): no desktop notification")
            return
        }
        // The body is markup to most notification servers: a file or card named `A&B` must not break it.
        let said = Self.runTool(
            notifySend, ["--app-name=mediashell", "--icon=camera-photo", SafeText.display(title), Self.markupEscaped(body)])
        if !said.isEmpty { say("notify-send: \(said)") }
    }

    /// `text` with the characters notification markup gives a meaning (`&`, `<`, `>`) as entities, and
    /// control characters other than line breaks made visible.
    static func markupEscaped(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            SafeText.display(String(line)).replacingOccurrences(of: "&", with: "&amp;")
                .replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
        }.joined(separator: "\n")
    }

    /// Runs a helper to its end (30 s at most); what it printed, trimmed.
    @discardableResult
    static func runTool(_ executable: String, _ arguments: [String]) -> String {
        do {
            let finished = try ChildProcess.run(
                executable: executable, arguments: arguments, input: [], outputLimit: 1 << 16, timeout: 30)
            let text = String(decoding: finished.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            if finished.exitCode != 0 && text.isEmpty { return "exit status \(finished.exitCode.map(String.init) ?? "?")" }
            return finished.exitCode == 0 ? "" : text
        } catch {
            return "\(error)"
        }
    }
}

extension LocalDisk {
    /// True while the mount table still lists a mount at `folder`.
    static func mountPointStillThere(_ folder: String, table: String) -> Bool {
        guard let text = try? PrivateFile.text(at: table) else { return false }
        return text.split(separator: "\n").contains { line in
            let fields = line.split(separator: " ", omittingEmptySubsequences: false)
            return fields.count > 4 && PluggedDevice.unescapedMountField(String(fields[4])) == folder
        }
    }
}
