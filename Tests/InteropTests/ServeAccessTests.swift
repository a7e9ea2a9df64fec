import Foundation
import TestSupport
import Testing

/// `serve` lets in only whom it should, and the shell's Wi-Fi identity as a served camera sees it: the GUID
/// kept per state folder, `--ptpip-guid` on the wire, `--allow` refusing others (our client and gphoto2),
/// `--pair` asking at serve's terminal (a pty) and remembering outside the card, no start on 0.0.0.0
/// without a choice, and `devices --wifi` finding `serve --advertise`. All on 127.0.0.1, ports chosen at run
/// time.
@Suite(.serialized, .tags(.process, .port), .notInFastRun) struct ServeAccessTests {
    static let gphoto2 = ProcessRunner.which("gphoto2")
    static let guidA = "00112233445566778899AABBCCDDEEFF"
    static let guidB = "FFEEDDCCBBAA99887766554433221100"

    final class Fixture {
        let base: TemporaryFolder
        var card: String { base.path("card") }
        var work: String { base.path("work") }

        init() throws {
            base = try TemporaryFolder("msh-serve-access")
            try base.write("card/DCIM/100MEDIA/DSC_0001.JPG", Array(repeating: 0xFF, count: 1000))
            try FileManager.default.createDirectory(atPath: base.path("work"), withIntermediateDirectories: true)
        }

        /// The shell with its own state folder `state` (its GUID lives there): `-c summary` on the served camera.
        func summary(_ port: UInt16, state: String, extra: [String] = []) throws -> ProcessResult {
            try ProcessRunner.run(
                BuildProducts.mediashell, ["-n", "--camera", "ptpip:127.0.0.1:\(port)"] + extra + ["-c", "summary"],
                directory: work,
                environment: ["HOME": base.path("home"), "XDG_STATE_HOME": base.path(state), "LANG": "C"], timeout: 90)
        }
    }

    /// The GUID `summary` says this computer gave the camera.
    static func guid(in result: ProcessResult) -> String? {
        result.stdout.split(separator: "\n").first { $0.hasPrefix("computer:") }
            .flatMap { $0.split(whereSeparator: { $0 == " " || $0 == "," }).first { $0.count == 32 }.map(String.init) }
    }

    @Test func theGUIDPersistsPerStateFolderAndIsSentOnTheWire() throws {
        let fixture = try Fixture()
        let server = try ServeProcess(arguments: [fixture.card])
        defer { _ = server.stop() }
        let first = try fixture.summary(server.port, state: "one")
        let again = try fixture.summary(server.port, state: "one")
        let other = try fixture.summary(server.port, state: "two")
        for result in [first, again, other] { #expect(result.status == 0, "\(result.stderr)") }
        let guid = try #require(Self.guid(in: first), "\(first.stdout)")
        #expect(Self.guid(in: again) == guid)
        #expect(Self.guid(in: other) != nil && Self.guid(in: other) != guid)
        #expect(server.waitForLog("GUID \(guid)", count: 2))

        let given = try fixture.summary(server.port, state: "one", extra: ["--ptpip-guid", Self.guidA])
        #expect(given.status == 0, "\(given.stderr)")
        #expect(Self.guid(in: given) == Self.guidA)
        #expect(server.waitForLog("GUID \(Self.guidA)", count: 1), "\(server.log)")
    }

    @Test func anAllowListLetsInItsGUIDAndRefusesOthers() throws {
        let fixture = try Fixture()
        let server = try ServeProcess(arguments: ["--allow", Self.guidA, fixture.card])
        defer { _ = server.stop() }
        let allowed = try fixture.summary(server.port, state: "s", extra: ["--ptpip-guid", Self.guidA])
        #expect(allowed.status == 0, "\(allowed.stderr)")
        #expect(server.waitForLog("GUID \(Self.guidA) let in (on the allow-list)", count: 1), "\(server.log)")

        let refused = try fixture.summary(server.port, state: "s", extra: ["--ptpip-guid", Self.guidB])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("refused this computer (Init_Fail: rejected initiator)"), "\(refused.stderr)")
        #expect(refused.stderr.contains(Self.guidB), "the words name the GUID refused: \(refused.stderr)")
        #expect(server.waitForLog("refused", count: 1), "\(server.log)")
    }

    @Test(.enabled(if: gphoto2 != nil)) func gphoto2IsRefusedByAnAllowListAndLetInWithout() throws {
        let fixture = try Fixture()
        let gated = try ServeProcess(arguments: ["--allow", Self.guidA, fixture.card])
        defer { _ = gated.stop() }
        let refused = try ProcessRunner.run(
            Self.gphoto2!, ["--port", "ptpip:127.0.0.1:\(gated.port):\(gated.port)", "--camera", "PTP/IP Camera", "--summary"],
            directory: fixture.work, environment: ["HOME": fixture.base.path("home"), "LANG": "C"], timeout: 60)
        #expect(refused.status != 0, "\(refused.stdout)")
        #expect(gated.waitForLog("Init_Fail (rejected initiator)", count: 1), "\(gated.log)")

        // Loopback with no choice made stays open: gphoto2 sends a GUID of its own.
        let open = try ServeProcess(arguments: [fixture.card])
        defer { _ = open.stop() }
        let summary = try ProcessRunner.run(
            Self.gphoto2!, ["--port", "ptpip:127.0.0.1:\(open.port):\(open.port)", "--camera", "PTP/IP Camera", "--summary"],
            directory: fixture.work, environment: ["HOME": fixture.base.path("home"), "LANG": "C"], timeout: 60)
        #expect(summary.status == 0, "\(summary.stderr)")
    }

    /// The Fujifilm persona (Fuji's own framing) is gated the same way: its init request carries the GUID.
    @Test func theFujiPersonaIsGatedToo() throws {
        let fixture = try Fixture()
        let server = try ServeProcess(arguments: ["--persona", "fuji-x", "--allow", Self.guidA, fixture.card])
        defer { _ = server.stop() }
        func open(_ guid: String) throws -> ProcessResult {
            try ProcessRunner.run(
                BuildProducts.mediashell,
                ["-n", "--camera", "fuji:127.0.0.1:\(server.port):\(server.eventPort ?? 0)", "--ptpip-guid", guid, "-c", "ls -R"],
                directory: fixture.work, environment: ["HOME": fixture.base.path("home"), "XDG_STATE_HOME": fixture.base.path("s"), "LANG": "C"],
                timeout: 90)
        }
        let allowed = try open(Self.guidA)
        #expect(allowed.status == 0, "\(allowed.stderr)")
        #expect(allowed.stdout.contains("DSC_0001.JPG"), "\(allowed.stdout)")
        let refused = try open(Self.guidB)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("refused this computer (Init_Fail"), "\(refused.stderr)")
        #expect(server.waitForLog("refused", count: 1), "\(server.log)")
    }

    @Test func beyondLoopbackServeNeedsAChoice() throws {
        let fixture = try Fixture()
        let result = try ProcessRunner.run(BuildProducts.mediashell, ["serve", "--listen", "0.0.0.0:0", fixture.card], timeout: 30)
        #expect(result.status == 2)
        #expect(result.stderr.contains("--allow GUID,..."), "\(result.stderr)")
        #expect(result.stderr.contains("--pair") && result.stderr.contains("--open"), "\(result.stderr)")
        let both = try ProcessRunner.run(BuildProducts.mediashell, ["serve", "--open", "--allow", Self.guidA, fixture.card], timeout: 30)
        #expect(both.status == 2, "\(both.stderr)")
        let noTerminal = try ProcessRunner.run(BuildProducts.mediashell, ["serve", "--pair", fixture.card], timeout: 30)
        #expect(noTerminal.status == 2, "standard input is /dev/null: \(noTerminal.stderr)")
    }

    /// `--pair` asks at serve's terminal (a pty here) while the shell says to confirm on the camera; the
    /// answer is remembered in the state folder, not on the card, and the next connection is not asked.
    @Test func pairingAsksAtTheTerminalAndRemembers() throws {
        let fixture = try Fixture()
        let serveState = fixture.base.path("serve-state")
        let terminal = try TerminalProcess(
            BuildProducts.mediashell, ["serve", "--listen", "127.0.0.1:0", "--pair", fixture.card],
            environment: ["XDG_STATE_HOME": serveState, "HOME": fixture.base.path("home")])
        defer { terminal.stop() }
        let port = try #require(terminal.waitFor(#/ptpip:127\.0\.0\.1:(\d+)/#).flatMap { UInt16($0) }, "\(terminal.text)")

        let client = try ShellProcess(
            ["-n", "--camera", "ptpip:127.0.0.1:\(port)", "-c", "summary"],
            environment: ["XDG_STATE_HOME": fixture.base.path("client-state"), "HOME": fixture.base.path("home"), "LANG": "C"])
        defer { client.kill() }
        #expect(terminal.waitFor(#/asks to connect/#) != nil, "\(terminal.text)")
        // The shell says what to do on the camera while it waits (it waits up to 60 s on a first contact).
        #expect(client.waitForError("confirm the connection on the camera's screen (waiting up to 60 s)"), "\(client.errors)")
        terminal.type("y\n")
        #expect(client.waitForOutput("can:"), "\(client.errors)")
        #expect(client.wait() == 0, "\(client.errors)")
        let first = ProcessResult(status: 0, stdout: client.output, stderr: client.errors, timedOut: false)
        let guid = try #require(Self.guid(in: first))
        #expect(terminal.waitFor(#/let in \(paired\)/#) != nil)

        let book = try #require(try? String(contentsOfFile: "\(serveState)/mediashell/serve/\(Self.servedSerial(first)).peers", encoding: .utf8))
        #expect(book.contains("allow \(guid)"), "\(book)")
        let onCard = try FileManager.default.subpathsOfDirectory(atPath: fixture.card)
        #expect(onCard.allSatisfy { !$0.hasSuffix(".peers") }, "nothing written on the card: \(onCard)")

        let second = try fixture.summary(port, state: "client-state")
        #expect(second.status == 0, "\(second.stderr)")
        #expect(!second.stderr.contains("confirm the connection"), "a known camera is not a first contact: \(second.stderr)")
        #expect(terminal.count(of: "asks to connect") == 1, "asked once: \(terminal.text)")
    }

    /// The serial number `summary` names (the served folder's, which keys serve's pairing file).
    static func servedSerial(_ result: ProcessResult) -> String {
        result.stdout.split(separator: "\n").first { $0.hasPrefix("serial:") }
            .map { $0.dropFirst("serial:".count).trimmingCharacters(in: .whitespaces) } ?? ""
    }

    /// Discovery finds `serve --advertise`. Multicast does not reach loopback on the test machines (`lo` has
    /// no MULTICAST flag), so serve answers on 127.0.0.1 at ports it chooses (`MEDIASHELL_TEST_ADVERTISE_PORTS`),
    /// says it is announced "to this computer only", and `devices --wifi` finds it: asked there unicast
    /// (`MEDIASHELL_DISCOVERY_TARGETS`), and without being told where, since besides the network's groups it
    /// asks loopback (only the stand-ins for 1900 and 5353 given, as serve takes them). The same SSDP and mDNS
    /// questions and answers as on a network.
    @Test func devicesFindsServeAdvertise() throws {
        let fixture = try Fixture()
        let server = try ServeProcess(
            arguments: ["--advertise", fixture.card], environment: ["MEDIASHELL_TEST_ADVERTISE_PORTS": "0,0"])
        defer { _ = server.stop() }
        #expect(server.waitForLog("(to this computer only)", count: 1), "\(server.log)")
        let ports = try #require(server.log.firstMatch(of: #/SSDP on 127\.0\.0\.1:(\d+) and mDNS on 127\.0\.0\.1:(\d+)/#), "\(server.log)")
        let asked = ["ssdp=127.0.0.1:\(ports.1)", "mdns=127.0.0.1:\(ports.2)", "ssdp=127.0.0.1:\(ports.1),mdns=127.0.0.1:\(ports.2)"]
            .map { ["MEDIASHELL_DISCOVERY_TARGETS": $0] } + [["MEDIASHELL_TEST_ADVERTISE_PORTS": "\(ports.1),\(ports.2)"]]
        for environment in asked {
            let result = try ProcessRunner.run(BuildProducts.mediashell, ["devices", "--wifi"], environment: environment, timeout: 30)
            #expect(result.status == 0)
            let lines = result.stdout.split(separator: "\n").filter { $0.hasPrefix("ptpip:") }
            #expect(lines.count == 1, "\(environment): \(result.stdout)")
            #expect(lines.first?.hasPrefix("ptpip:127.0.0.1:\(server.port) ") == true, "\(environment): \(result.stdout)")
        }
    }
}

/// A program on a pseudo-terminal (its standard input, output and error), as a person at a terminal runs it:
/// util-linux's `script` makes the terminal and carries what the test types to it and what it writes back.
final class TerminalProcess: @unchecked Sendable {
    // Safe: every member is set once, in init; the collector and the mailbox are thread-safe.
    private let process = Process()
    private let input = Pipe()
    private let output = PipeCollector()
    private let exited = Mailbox<Int32>()

    init(_ executable: String, _ arguments: [String], environment: [String: String]) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        let command = ([executable] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        process.arguments = ["-q", "-f", "-e", "-c", "exec " + command.joined(separator: " "), "/dev/null"]
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardInput = input
        process.standardOutput = output.pipe
        process.standardError = output.pipe
        let exited = self.exited
        process.terminationHandler = { exited.put($0.terminationStatus) }
        try process.run()
    }

    var text: String { output.text }

    func count(of part: String) -> Int { text.components(separatedBy: part).count - 1 }

    /// The first capture of `pattern` (or the match) once the output holds it, nil after `timeout`.
    func waitFor<Output>(_ pattern: Regex<Output>, timeout: TimeInterval = 30) -> Substring? {
        guard output.wait(timeout: timeout, until: { String(decoding: $0, as: UTF8.self).firstMatch(of: pattern) != nil }) else {
            return nil
        }
        let current = text
        guard let match = current.firstMatch(of: pattern) else { return nil }
        let captures = Mirror(reflecting: match.output).children.dropFirst().compactMap { $0.value as? Substring }
        return captures.first ?? current[match.range]
    }

    func type(_ text: String) { input.fileHandleForWriting.write(Data(text.utf8)) }

    /// Ctrl-C at the terminal, as a person stops serve; bounded, then killed.
    func stop() {
        guard process.isRunning else { return }
        type("\u{03}")
        if exited.take(timeout: 10) == nil { process.terminate() }
    }
}
