import CommandKit
import Foundation
import FujiWiFi
import POSIX
import PTP
import PTPIP
import TerminalKit
import Thumbnails
import VirtualCamera

/// `mediashell serve [--listen HOST:PORT] [--read-only | --writable [--max-upload SIZE]] [--link LINK]
/// [--quirks a,b,...] [DIR]`: the virtual camera over PTP/IP, serving DIR (or the demo card) until Ctrl-C,
/// one log line per session on stderr. Uploads (SendObjectInfo/SendObject, new folders, folder deletes)
/// only with `--writable`. With `--quirks` it imitates real cameras' departures from the spec (`--quirks
/// help` lists them); `--link` makes each connection cost what a Wi-Fi or USB link would (see `LinkModel`).
public struct ServeCommand {
    public var host = "127.0.0.1"
    public var port: UInt16 = 15740
    /// True when `--listen` named a port (else the persona's own: 55740 for `fuji-x`).
    var portGiven = false
    public var readOnly = false
    /// Uploads accepted (`--writable`); nil: none, the default.
    public var uploads: UploadPolicy?
    public var folder: String?
    public var quirks: Quirks = []
    /// Which camera the virtual camera pretends to be (`--persona`): the generic one by default.
    public var persona: PersonaName = .generic
    public var link: LinkModel?

    /// `mediashell serve`, declared once: its parser, `--help`, the man page and the bash completion read it.
    public static let spec = CommandSpec(
        "serve", area: .program,
        options: [
            OptionSpec("listen", short: "l", long: "listen", value: ArgumentSpec("HOST:PORT", .text),
                "where to listen (127.0.0.1:15740; the fuji-x persona's own port 55740)"),
            OptionSpec("read-only", short: "r", long: "read-only", "refuse deletes"),
            OptionSpec("writable", short: "w", long: "writable", "accept uploads (put, mkdir), contained in DIR"),
            OptionSpec("max-upload", long: "max-upload", value: ArgumentSpec("SIZE", .text),
                "the largest upload accepted (500M, 4G); implies --writable"),
            OptionSpec("link", long: "link", value: ArgumentSpec("LINK", .text),
                "make each connection cost what a Wi-Fi or USB link would (\(LinkModel.syntax))"),
            OptionSpec("quirks", long: "quirks", value: ArgumentSpec("LIST", .text),
                "imitate real cameras' departures from the spec (a,b,...; 'help' lists them)"),
            OptionSpec("persona", long: "persona", value: ArgumentSpec("NAME", .text),
                "the camera to pretend to be: generic, canon-eos, nikon, fuji-x ('help' says more)"),
            OptionSpec("help", short: "h", long: "help", "print this help and exit"),
        ],
        arguments: [ArgumentSpec("DIR", .localFolder, .optional)],
        summary: "serve DIR (or the demo card) as a camera over PTP/IP until Ctrl-C",
        details: """
            The virtual camera over PTP/IP, serving DIR (or the demo card) until Ctrl-C, one log line per \
            session on standard error. Deletes and captures unless --read-only; uploads only with --writable.
            """,
        examples: ["mediashell serve ~/Pictures/card", "mediashell serve --link wifi --quirks lazy-handles DIR"])

    /// After a mistake: one line, and where the whole usage is.
    static let helpHint = " (try 'mediashell serve --help')"

    /// `--help` was given: print `help` and exit.
    public var wantsHelp = false

    public init(arguments: [String]) throws {
        let invocation: Invocation
        do {
            invocation = try Self.spec.parse(commandLine: arguments)
        } catch {
            throw ArgumentError("serve: \(error.message)\(Self.helpHint)")
        }
        if invocation.has("help") {
            wantsHelp = true
            return
        }
        if let value = invocation.value(of: "listen") { try parseListen(value.text) }
        readOnly = invocation.has("read-only")
        if invocation.has("writable") { uploads = UploadPolicy() }
        if let value = invocation.value(of: "max-upload") {
            guard let size = ByteCountText.parse(value.text), size > 0 else {
                throw ArgumentError("serve: --max-upload needs a size (500M, 4G)")
            }
            uploads = UploadPolicy(maximumObjectSize: size)
        }
        if let value = invocation.value(of: "persona") { try parsePersona(value.text) }
        if let value = invocation.value(of: "quirks") { try parseQuirks(value.text) }
        if let value = invocation.value(of: "link") { try parseLink(value.text) }
        folder = invocation.arguments.first?.text
    }

    mutating func parseQuirks(_ value: String) throws {
        if value == "help" { throw ArgumentError(Quirks.help, isHelp: true) }
        do {
            quirks = try Quirks(parsing: value)
        } catch {
            throw ArgumentError("serve: \(SafeText.display(error.description))")
        }
    }

    mutating func parsePersona(_ value: String) throws {
        if value == "help" { throw ArgumentError("personas:\n" + PersonaName.help, isHelp: true) }
        guard let name = PersonaName(rawValue: value.lowercased()) else {
            let names = PersonaName.allCases.map(\.rawValue).joined(separator: ", ")
            throw ArgumentError("serve: unknown persona '\(SafeText.display(value))' (one of \(names))")
        }
        persona = name
    }

    mutating func parseLink(_ value: String) throws {
        guard let parsed = LinkModel(parsing: value) else {
            throw ArgumentError("serve: --link wants \(LinkModel.syntax) (RTT in ms, MB/s), got '\(value)'")
        }
        link = parsed
    }

    mutating func parseListen(_ value: String) throws {
        guard let colon = value.lastIndex(of: ":") else {
            guard let p = UInt16(value) else { throw ArgumentError("serve: --listen wants HOST:PORT, got '\(value)'") }
            port = p
            portGiven = true
            return
        }
        let h = String(value[..<colon])
        guard let p = UInt16(value[value.index(after: colon)...]) else {
            throw ArgumentError("serve: '\(value[value.index(after: colon)...])' is not a port number")
        }
        if !h.isEmpty { host = h.hasPrefix("[") && h.hasSuffix("]") ? String(h.dropFirst().dropLast()) : h }
        port = p
        portGiven = true
    }

    /// Runs until SIGINT or SIGTERM; returns the exit status.
    public func run() -> Int32 {
        if readOnly && uploads != nil {
            Console.error("serve: --read-only and --writable cannot be used together")
            return 2
        }
        if uploads != nil && folder == nil {
            Console.error("serve: --writable needs a folder to write to\(Self.helpHint)")
            return 2
        }
        let card: Card
        do {
            if let folder {
                card = try Card(folder: folder, readOnly: readOnly, uploads: uploads)
                try DemoCard.enableCapture(on: card)
            } else {
                card = try DemoCard.make()
            }
        } catch {
            Console.error("serve: \(error)")
            return 1
        }
        card.startWatching()
        // A served folder is a camera of its own (its own serial number, so its own import ledger).
        let identity = folder.map { VirtualCamera.Identity.servingFolder($0) } ?? VirtualCamera.Identity()
        let camera = VirtualCamera(card: card, identity: identity, quirks: quirks, persona: .named(persona), videoFrames: KeyframeVideoFrames.find()) {
            Console.error("serve: \($0)")
        }
        let session: @Sendable (ResponderTransport, String, String) -> Void = { [link] connection, address, name in
            let transport: ResponderTransport = link.map { LinkShapedTransport(connection, link: $0) } ?? connection
            let stats = camera.serve(transport, peer: address)
            var line = "serve: session \(address) '\(name)': \(stats.transactions) requests, "
                + "\(HumanReadable.size(stats.bytesSent)) (\(stats.bytesSent) bytes) sent in \(String(format: "%.1f", stats.duration)) s"
            if let error = stats.error { line += " (ended: \(error))" }
            Console.error(line)
        }
        let access = readOnly ? " (read-only)" : uploads.map { " (writable, uploads up to \(HumanReadable.size($0.maximumObjectSize)))" } ?? ""
        let what = folder.map { "\($0)\(access)" } ?? "the demo card"
        let quirky = (quirks.isEmpty ? "" : " with quirks \(quirks.description)")
            + (persona == .generic ? "" : " as a \(camera.identity.manufacturer) \(camera.identity.model) (persona \(persona.rawValue))")
        let shaped = link.map { " over a modelled link (\($0))" } ?? ""
        let stopServer: () -> Void
        if persona == .fujiX {
            // A Fujifilm body on Wi-Fi speaks Fuji's framing, not PTP/IP: commands on 55740, events on the next port.
            let commandPort = portGiven ? port : FujiPorts.command
            let server = FujiServer(
                host: host, port: commandPort, eventPort: commandPort == 0 ? 0 : commandPort &+ 1, name: camera.identity.model,
                log: { Console.error("serve: \($0)") },
                handler: { connection, peer in session(connection, peer.address, peer.name) })
            do {
                try server.start()
            } catch {
                Console.error("serve: cannot listen on \(host):\(commandPort): \(error)" + Self.portInUseHint(host, commandPort))
                return 1
            }
            Console.error(
                "serve: \(what) as a Fujifilm camera on Wi-Fi\(quirky) on fuji:\(host):\(server.port):\(server.eventPort)\(shaped) (Ctrl-C to stop)")
            stopServer = server.stop
        } else {
            let server = PTPIPServer(
                host: host, port: port, name: camera.identity.model,
                log: { Console.error("serve: \($0)") },
                handler: { connection, peer in session(connection, peer.address, peer.name) })
            do {
                try server.start()
            } catch {
                Console.error("serve: cannot listen on \(host):\(port): \(error)" + Self.portInUseHint(host, port))
                return 1
            }
            Console.error("serve: \(what) as a PTP/IP camera\(quirky) on ptpip:\(host):\(server.port)\(shaped) (Ctrl-C to stop)")
            stopServer = server.stop
        }
        waitForTermination()
        stopServer()
        card.stopWatching()
        Console.error("serve: stopped")
        return 0
    }

    /// When `host:port` is taken, how to choose another (`--listen`); "" otherwise. The server's error keeps the
    /// system's words, not its errno: a second try says which it was.
    static func portInUseHint(_ host: String, _ port: UInt16) -> String {
        do throws(SystemError) {
            try Socket.listen(host: host, port: port).close()
        } catch where error.errno == EADDRINUSE {
            return " (another program, or another serve, has that port: --listen \(host):PORT picks another, "
                + "--listen \(host):0 any free one)"
        } catch {}
        return ""
    }

    /// Blocks until SIGINT or SIGTERM.
    func waitForTermination() {
        do {
            try Interrupt.installForServer().wait()
        } catch {
            Console.error("serve: \(error); stop it with SIGKILL")
            while true { pause() }
        }
    }
}
