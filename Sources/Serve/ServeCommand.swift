import Foundation
import FujiWiFi
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

    public static let usage =
        "usage: mediashell serve [--listen HOST:PORT] [--read-only | --writable [--max-upload SIZE]] [--link \(LinkModel.syntax)] [--quirks a,b,...|help] [--persona NAME|help] [DIR]"

    public init(arguments: [String]) throws {
        var rest = arguments[...]
        while let arg = rest.popFirst() {
            switch arg {
            case "--listen", "-l":
                guard let value = rest.popFirst() else { throw ArgumentError("serve: --listen needs HOST:PORT") }
                try parseListen(value)
            case _ where arg.hasPrefix("--listen="):
                try parseListen(String(arg.dropFirst("--listen=".count)))
            case "--read-only", "-r":
                readOnly = true
            case "--writable", "-w":
                uploads = uploads ?? UploadPolicy()
            case "--max-upload":
                guard let value = rest.popFirst(), let size = ByteCountText.parse(value), size > 0 else {
                    throw ArgumentError("serve: --max-upload needs a size (500M, 4G)")
                }
                uploads = UploadPolicy(maximumObjectSize: size)
            case "--persona":
                guard let value = rest.popFirst() else { throw ArgumentError("serve: --persona needs a name (--persona help)") }
                try parsePersona(value)
            case _ where arg.hasPrefix("--persona="):
                try parsePersona(String(arg.dropFirst("--persona=".count)))
            case "--quirks":
                guard let value = rest.popFirst() else { throw ArgumentError("serve: --quirks needs a list (--quirks help)") }
                try parseQuirks(value)
            case _ where arg.hasPrefix("--quirks="):
                try parseQuirks(String(arg.dropFirst("--quirks=".count)))
            case "--link":
                guard let value = rest.popFirst() else { throw ArgumentError("serve: --link needs \(LinkModel.syntax)") }
                try parseLink(value)
            case _ where arg.hasPrefix("--link="):
                try parseLink(String(arg.dropFirst("--link=".count)))
            case "--help", "-h":
                throw ArgumentError(Self.usage, isHelp: true)
            case "--":
                if let value = rest.popFirst() { try setFolder(value) }
            default:
                if arg.hasPrefix("-") && arg.count > 1 { throw ArgumentError("serve: unknown option \(arg)\n\(Self.usage)") }
                try setFolder(arg)
            }
        }
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

    mutating func setFolder(_ value: String) throws {
        guard folder == nil else { throw ArgumentError("serve: one folder only\n\(Self.usage)") }
        folder = value
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
            Console.error("serve: --writable needs a folder to write to\n\(Self.usage)")
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
                Console.error("serve: cannot listen on \(host):\(commandPort): \(error)")
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
                Console.error("serve: cannot listen on \(host):\(port): \(error)")
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
