import CommandKit
import Discovery
import Foundation
import FujiWiFi
import POSIX
import PTP
import PTPIP
import PTPUSB
import TerminalKit
import Thumbnails
import VirtualCamera

/// `mediashell serve [--listen HOST:PORT] [--writable [--max-upload SIZE]] [--link LINK]
/// [--quirks a,b,...] [DIR]`: the virtual camera over PTP/IP, serving DIR (or the demo card) until Ctrl-C,
/// one log line per session on stderr. Safe by default: the card is read-only (no delete, no capture, no
/// upload) unless `--writable`; `--read-only` says the default out loud (accepted, as it always was). With `--quirks` it imitates real cameras' departures from the spec (`--quirks
/// help` lists them); `--link` makes each connection cost what a Wi-Fi or USB link would (see `LinkModel`).
public struct ServeCommand {
    public var host = "127.0.0.1"
    public var port: UInt16 = 15740
    /// True when `--listen` named a port (else the persona's own: 55740 for `fuji-x`).
    var portGiven = false
    /// Deletes, captures and uploads allowed (`--writable`); false, the default, serves the card read-only.
    public var writable = false
    /// `--read-only` was given: the default said out loud (kept from when deletes were on by default).
    public var readOnlyGiven = false
    /// Uploads accepted (`--writable` on a folder); nil: none, the default.
    public var uploads: UploadPolicy?
    public var folder: String?
    public var quirks: Quirks = []
    /// Which camera the virtual camera pretends to be (`--persona`): the generic one by default.
    public var persona: PersonaName = .generic
    public var link: LinkModel?
    /// `--allow GUID,...`: the initiators let in.
    var allowed: Set<[UInt8]> = []
    /// `--pair`: an unknown initiator is asked about at the terminal, the answer remembered.
    var pair = false
    /// `--open`: anyone is let in, wherever serve listens.
    var open = false
    /// `--advertise`: announced on the network by SSDP and mDNS.
    var advertise = false
    /// `--usb-gadget [UDC]`: served as a USB device on this computer's device controller instead of over
    /// PTP/IP; the controller named, or "" for the first.
    var usbGadget: String?

    /// `mediashell serve`, declared once: its parser, `--help`, the man page and the bash completion read it.
    public static let spec = CommandSpec(
        "serve", area: .program,
        options: [
            OptionSpec("listen", short: "l", long: "listen", value: ArgumentSpec("HOST:PORT", .text),
                "where to listen (127.0.0.1:15740; the fuji-x persona's own port 55740)"),
            OptionSpec("writable", short: "w", long: "writable",
                "let clients delete, capture and upload (put, mkdir), contained in DIR"),
            OptionSpec("read-only", short: "r", long: "read-only", "refuse deletes, captures and uploads (the default)"),
            OptionSpec("max-upload", long: "max-upload", value: ArgumentSpec("SIZE", .text),
                "the largest upload accepted (500M, 4G); implies --writable"),
            OptionSpec("link", long: "link", value: ArgumentSpec("LINK", .text),
                "make each connection cost what a Wi-Fi or USB link would (\(LinkModel.syntax))"),
            OptionSpec("quirks", long: "quirks", value: ArgumentSpec("LIST", .text),
                "imitate real cameras' departures from the spec (a,b,...; 'help' lists them)"),
            OptionSpec("persona", long: "persona", value: ArgumentSpec("NAME", .text),
                "the camera to pretend to be: generic, canon-eos, nikon, fuji-x ('help' says more)"),
            OptionSpec("allow", long: "allow", value: ArgumentSpec("GUIDS", .text),
                "let in only these initiators (GUIDs of 32 hex digits, comma-separated; mediashell's summary shows its own)"),
            OptionSpec("pair", long: "pair",
                "ask here the first time an unknown initiator connects (name, GUID, address), and remember the answer"),
            OptionSpec("open", long: "open", "let in anyone who reaches the port (the default on 127.0.0.1 only)"),
            OptionSpec("advertise", long: "advertise", "announce the camera on the network (SSDP and mDNS), for 'devices'"),
            OptionSpec("usb-gadget", long: "usb-gadget", value: ArgumentSpec("UDC", .text),
                "be a USB camera on this computer's USB device controller UDC (first: the first in /sys/class/udc; as root)"),
            OptionSpec("help", short: "h", long: "help", "print this help and exit"),
        ],
        arguments: [ArgumentSpec("DIR", .localFolder, .optional)],
        summary: "serve DIR (or the demo card) as a camera over PTP/IP until Ctrl-C",
        details: """
            The virtual camera over PTP/IP, serving DIR (or the demo card) until Ctrl-C, one log line per \
            session on standard error. The card is read-only unless --writable: clients list, download and \
            read thumbnails, and nothing on the card changes. --writable lets them delete, capture (a new \
            photo in DIR) and upload; on the demo card, deletes and captures change only the copy in memory. \
            Listening beyond loopback (--listen 0.0.0.0:15740) says what any computer that can reach this one \
            may then do. Who may connect: on 127.0.0.1 anyone on this computer; beyond it serve does not start without a \
            choice: --allow GUID,... (others are refused with Init_Fail "rejected initiator"), --pair (asked \
            here, answers kept in $XDG_STATE_HOME/mediashell/serve/, not on the card) or --open. --allow and \
            --pair apply on 127.0.0.1 too.
            """,
        examples: [
            "mediashell serve ~/Pictures/card", "mediashell serve --link wifi --quirks lazy-handles DIR",
            "mediashell serve --listen 0.0.0.0:15740 --pair --advertise DIR",
        ])

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
        readOnlyGiven = invocation.has("read-only")
        writable = invocation.has("writable")
        if let value = invocation.value(of: "max-upload") {
            guard let size = ByteCountText.parse(value.text), size > 0 else {
                throw ArgumentError("serve: --max-upload needs a size (500M, 4G)")
            }
            writable = true
            uploads = UploadPolicy(maximumObjectSize: size)
        }
        if let value = invocation.value(of: "persona") { try parsePersona(value.text) }
        if let value = invocation.value(of: "quirks") { try parseQuirks(value.text) }
        if let value = invocation.value(of: "link") { try parseLink(value.text) }
        if let value = invocation.value(of: "allow") { try parseAllow(value.text) }
        pair = invocation.has("pair")
        open = invocation.has("open")
        advertise = invocation.has("advertise")
        if let value = invocation.value(of: "usb-gadget") { usbGadget = value.text == "first" ? "" : value.text }
        folder = invocation.arguments.first?.text
        if writable && uploads == nil && folder != nil { uploads = UploadPolicy() }
    }

    mutating func parseAllow(_ value: String) throws {
        for item in value.split(separator: ",") {
            guard let guid = GUIDText.parse(String(item)) else {
                throw ArgumentError(
                    "serve: --allow wants GUIDs of 32 hexadecimal digits, comma-separated, not '\(SafeText.display(String(item)))'")
            }
            allowed.insert(guid)
        }
        if allowed.isEmpty { throw ArgumentError("serve: --allow wants at least one GUID\(Self.helpHint)") }
    }

    /// Who may connect, or the line that says why serve does not start (exit status 2).
    func accessPolicy(serialNumber: String) -> Result<ServeAccess, ArgumentError> {
        if open && (pair || !allowed.isEmpty) {
            return .failure(ArgumentError("serve: --open lets anyone in: it goes with neither --allow nor --pair"))
        }
        if !Self.isLoopback(host) && !open && !pair && allowed.isEmpty {
            return .failure(ArgumentError(
                "serve: \(host) is reachable from other computers: choose who may connect with --allow GUID,... "
                    + "(an allow-list), --pair (asked here the first time each connects) or --open (anyone)"))
        }
        var access = ServeAccess(allowed: allowed, open: open || (!pair && allowed.isEmpty))
        if pair {
            guard isatty(0) == 1 else {
                return .failure(ArgumentError("serve: --pair asks at the terminal, and standard input is not one (--allow GUID,... needs none)"))
            }
            guard let book = PairingBook(environment: ProcessInfo.processInfo.environment, serialNumber: serialNumber) else {
                return .failure(ArgumentError("serve: --pair keeps its answers in $XDG_STATE_HOME, and neither it nor $HOME is set"))
            }
            access.pairing = ServeAccess.Pairing(book: book, prompt: PairingPrompt())
        }
        return .success(access)
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
        if readOnlyGiven && writable {
            Console.error("serve: --read-only and --writable cannot be used together")
            return 2
        }
        if uploads != nil && folder == nil {
            Console.error("serve: --max-upload needs a folder to write to\(Self.helpHint)")
            return 2
        }
        let card: Card
        do {
            if let folder {
                card = try Card(folder: folder, readOnly: !writable, uploads: uploads)
                try DemoCard.enableCapture(on: card)
            } else {
                card = try DemoCard.make(readOnly: !writable)
            }
        } catch {
            Console.error("serve: \(error)")
            return 1
        }
        card.startWatching()
        // A served folder is a camera of its own (its own serial number, so its own import ledger).
        let identity = folder.map { VirtualCamera.Identity.servingFolder($0) } ?? VirtualCamera.Identity()
        let camera = VirtualCamera(card: card, identity: identity, quirks: quirks, persona: usbGadget == nil ? .named(persona) : .namedOverUSB(persona), videoFrames: KeyframeVideoFrames.find()) {
            Console.error("serve: \($0)")
        }
        let gatekeeper: ServeAccess
        switch accessPolicy(serialNumber: identity.serialNumber) {
        case .success(let policy): gatekeeper = policy
        case .failure(let refusal):
            Console.error(refusal.description)
            return 2
        }
        let session: @Sendable (ResponderTransport, String, String, [UInt8]) -> Void = { [link] connection, address, name, guid in
            let transport: ResponderTransport = link.map { LinkShapedTransport(connection, link: $0) } ?? connection
            let stats = camera.serve(transport, peer: address)
            // A USB host has no name or GUID to give: its session is named by the bus alone.
            let who = guid.isEmpty ? address : "\(address) '\(name)' GUID \(GUIDText.format(guid))"
            var line = "serve: session \(who): \(stats.transactions) requests, "
                + "\(HumanReadable.size(stats.bytesSent)) (\(stats.bytesSent) bytes) sent in \(String(format: "%.1f", stats.duration)) s"
            if let error = stats.error { line += " (ended: \(error))" }
            Console.error(line)
        }
        let what = (folder ?? "the demo card") + " (\(accessWords))"
        let quirky = (quirks.isEmpty ? "" : " with quirks \(quirks.description)")
            + (persona == .generic ? "" : " as a \(camera.identity.manufacturer) \(camera.identity.model) (persona \(persona.rawValue))")
        let shaped = link.map { " over a modelled link (\($0))" } ?? ""
        let stopServer: () -> Void
        let advertisedPort: UInt16
        if let usbGadget {
            let ids = Persona.named(persona).usbIDs ?? (0x1D6B, 0x0100)
            let gadget = USBGadget(identity: USBGadget.Identity(
                vendorID: ids.vendor, productID: ids.product, manufacturer: camera.identity.manufacturer,
                product: camera.identity.model, serialNumber: identity.serialNumber))
            do {
                try gadget.start(udc: usbGadget.isEmpty ? nil : usbGadget)
            } catch {
                Console.error("serve: cannot be a USB gadget: \(error)")
                return 1
            }
            let serving = try? JoinableThread(name: "serve-usb") {
                while let connection = gadget.nextConnection() { session(connection, "USB", "", []) }
            }
            Console.error("serve: \(what) as a USB camera\(quirky) on \(gadget.controller ?? "?") (Ctrl-C to stop)")
            stopServer = {
                gadget.stop()
                serving?.join()
            }
            advertisedPort = 0
        } else if persona == .fujiX {
            // A Fujifilm body on Wi-Fi speaks Fuji's framing, not PTP/IP: commands on 55740, events on the next
            // port, live view on the one after.
            let commandPort = portGiven ? port : FujiPorts.command
            let frames = LiveViewFrames()
            let server = FujiServer(
                host: host, port: commandPort, eventPort: commandPort == 0 ? 0 : commandPort &+ 1,
                liveViewPort: commandPort == 0 ? 0 : commandPort &+ 2,
                liveView: FujiLiveViewFeed(interval: 1 / frames.framesPerSecond) { frames.frame(after: $0) },
                name: camera.identity.model,
                log: { Console.error("serve: \($0)") },
                gate: { peer in Self.admits(gatekeeper, peer.name, peer.guid, peer.address) ? nil : InitFailReason.rejectedInitiator.rawValue },
                handler: { connection, peer in session(connection, peer.address, peer.name, peer.guid) })
            do {
                try server.start()
            } catch {
                Console.error("serve: cannot listen on \(host):\(commandPort): \(error)" + Self.portInUseHint(host, commandPort))
                return 1
            }
            // fuji:HOST:PORT:EVENTPORT, and the live-view port when it is not the next (ports the system chose).
            var ports = "\(server.port):\(server.eventPort)"
            if let liveViewPort = server.liveViewPort, liveViewPort != server.eventPort &+ 1 { ports += ":\(liveViewPort)" }
            Console.error("serve: \(what) as a Fujifilm camera on Wi-Fi\(quirky) on fuji:\(host):\(ports)\(shaped) (Ctrl-C to stop)")
            if let exposure = exposureWarning(port: server.port) { Console.error(exposure) }
            stopServer = server.stop
            advertisedPort = server.port
        } else {
            let server = PTPIPServer(
                host: host, port: port, name: camera.identity.model,
                // Beyond loopback, an address that keeps failing its handshake is shut out for the minute.
                maximumFailuresPerMinute: Self.isLoopback(host) ? nil : 10,
                log: { Console.error("serve: \($0)") },
                gate: { peer in Self.admits(gatekeeper, peer.name, peer.guid, peer.address) ? .admit : .refuse(.rejectedInitiator) },
                handler: { connection, peer in session(connection, peer.address, peer.name, peer.guid) })
            do {
                try server.start()
            } catch {
                Console.error("serve: cannot listen on \(host):\(port): \(error)" + Self.portInUseHint(host, port))
                return 1
            }
            Console.error("serve: \(what) as a PTP/IP camera\(quirky) on ptpip:\(host):\(server.port)\(shaped) (Ctrl-C to stop)")
            // gphoto2 takes the event port from a third field, else 15740: the port twice, as this server has one.
            let reach = Self.isWildcard(host) ? "127.0.0.1" : host
            Console.error("serve: gphoto2 reaches it with --port ptpip:\(reach):\(server.port):\(server.port) --camera 'PTP/IP Camera'")
            if let exposure = exposureWarning(port: server.port) { Console.error(exposure) }
            stopServer = server.stop
            advertisedPort = server.port
        }
        var advertiser: CameraAdvertiser?
        if advertise {
            advertiser = startAdvertising(model: camera.identity.model, serialNumber: identity.serialNumber, port: advertisedPort)
        }
        waitForTermination()
        gatekeeper.pairing?.prompt.stop()
        advertiser?.stop()
        stopServer()
        card.stopWatching()
        Console.error("serve: stopped")
        return 0
    }

    /// What clients may do to the card, for the first line: "read-only" or what `--writable` allows.
    var accessWords: String {
        guard writable else { return "read-only: --writable allows deletes, captures and uploads" }
        guard folder != nil, let uploads else { return "writable: deletes and captures change only the copy in memory" }
        return "writable: deletes, captures, uploads up to \(HumanReadable.size(uploads.maximumObjectSize))"
    }

    /// Listening beyond loopback: one line that says who can reach the card and what they may do; nil on
    /// loopback (127.0.0.0/8, ::1, localhost), where only this computer's programs can connect.
    func exposureWarning(port: UInt16) -> String? {
        guard !Self.isLoopback(host) else { return nil }
        let card = folder.map { "every file under \($0)" } ?? "the demo card"
        let anyone = Self.isWildcard(host) ? "any computer that can reach this one" : "any computer that can reach \(host)"
        // The gate narrows it to whom --allow names or --pair lets in (a GUID is no password: it goes in clear).
        let who =
            allowed.isEmpty ? (pair ? ", once let in here (--pair)," : "")
            : pair ? ", with a GUID of --allow or once let in here (--pair)," : ", with a GUID of --allow,"
        let reach = anyone + who
        let may = writable
            ? "list and download \(card), and delete, capture" + (uploads != nil ? " and upload into it" : "")
            : "list and download \(card) (read-only: nothing on it changes)"
        return "serve: listening beyond loopback on port \(port): \(reach) may \(may), with no password "
            + "(--listen 127.0.0.1:\(port) keeps it to this computer)"
    }

    /// 127.0.0.0/8, ::1 and localhost: reachable from this computer only.
    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.") || host == "0:0:0:0:0:0:0:1"
    }

    /// Every address of this computer: 0.0.0.0, ::, or an empty host.
    static func isWildcard(_ host: String) -> Bool { host == "0.0.0.0" || host == "::" || host.isEmpty }

    /// Announces the camera by SSDP and mDNS (`--advertise`): on the network when serve listens beyond
    /// loopback, else to this computer only. `MEDIASHELL_TEST_ADVERTISE_PORTS=SSDP,MDNS` (tests) answers on
    /// those ports instead of 1900 and 5353 (0: any free one, said in the log). A failure is logged; serving goes on.
    func startAdvertising(model: String, serialNumber: String, port: UInt16) -> CameraAdvertiser? {
        var ports: (UInt16, UInt16) = (1900, 5353)
        if let text = ProcessInfo.processInfo.environment["MEDIASHELL_TEST_ADVERTISE_PORTS"] {
            let numbers = text.split(separator: ",").compactMap { UInt16($0) }
            if numbers.count == 2 { ports = (numbers[0], numbers[1]) }
        }
        let everywhere = Self.isWildcard(host)
        let addresses = everywhere ? localIPv4Addresses() : [host]
        let name = "\(model) on \(localHostName() ?? "mediashell")"
        let advertiser = CameraAdvertiser(
            camera: CameraAdvertiser.Camera(name: name, port: port, addresses: addresses, uuid: "mediashell-\(serialNumber)"),
            bindHost: everywhere ? "0.0.0.0" : host, ssdpPort: ports.0, mdnsPort: ports.1,
            log: { Console.error("serve: \($0)") })
        do {
            try advertiser.start()
        } catch {
            Console.error("serve: cannot announce the camera: \(error) (serving goes on; 'devices' will not find it)")
            return nil
        }
        let bound = advertiser.ports
        let scope = everywhere ? "" : Self.isLoopback(host) ? " (to this computer only)" : ""
        Console.error(
            "serve: announced as '\(name)' by SSDP on \(everywhere ? "0.0.0.0" : host):\(bound.ssdp) and mDNS on "
                + "\(everywhere ? "0.0.0.0" : host):\(bound.mdns)\(scope)")
        return advertiser
    }

    /// The gate of both servers: whether the initiator is let in, said in the log when a rule other than
    /// "open" let it in.
    static func admits(_ access: ServeAccess, _ name: String, _ guid: [UInt8], _ address: String) -> Bool {
        let admitted = access.admits(name: name, guid: guid, address: address)
        if admitted && !access.open {
            Console.error("serve: \(address) '\(SafeText.display(name))' GUID \(GUIDText.format(guid)) let in (\(access.why(guid)))")
        }
        return admitted
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
