import Foundation
import POSIX
import TestSupport
import Testing

/// `--debug-ptp FILE`: the built binary records every container of a real session, in-process (`dir:`) and
/// over PTP/IP (`mediashell serve` in its own process), and `--debug-ptp-redact` leaves no name in it.
@Suite(.tags(.port), .notInFastRun) struct PTPTraceTests {
    /// A card whose names would identify someone, and a scratch folder for traces and downloads.
    final class Fixture {
        let base: String
        let card: String
        let work: String
        static let names = ["Anna Schmidt birthday.JPG", "IMG_4711.JPG", "Ferienhaus Sylt.MOV"]
        static let folder = "Privat Urlaub"

        init() throws {
            base = FileManager.default.temporaryDirectory.appendingPathComponent("trace-\(UUID().uuidString)").path
            card = base + "/card"
            work = base + "/work"
            try FileManager.default.createDirectory(atPath: card + "/DCIM/" + Self.folder, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
            for (index, name) in Self.names.enumerated() {
                let bytes = (0..<(5_000 + index * 777)).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ index) }
                try Data(bytes).write(to: URL(fileURLWithPath: card + "/DCIM/" + Self.folder + "/" + name))
            }
        }

        deinit { try? FileManager.default.removeItem(atPath: base) }

        /// Runs the shell on `camera` with a trace; returns the run and the trace's text.
        func run(_ camera: String, redact: Bool, _ commands: String) throws -> (ProcessResult, String) {
            let trace = work + "/trace-\(UUID().uuidString).txt"
            let result = try ProcessRunner.run(
                BuildProducts.mediashell,
                ["--camera", camera, "--download-dir", work, "--debug-ptp", trace] + (redact ? ["--debug-ptp-redact"] : [])
                    + ["-c", commands],
                environment: ["NO_COLOR": "1"])
            let text = (try? String(contentsOfFile: trace, encoding: .utf8)) ?? ""
            return (result, text)
        }
    }

    static let commands = "summary; ls -l DCIM; cd 'DCIM/Privat Urlaub'; ls -l; fetch IMG_4711.JPG"

    /// The lines of a session every trace must hold, in order: the connect, a listing, a download, the close.
    static func expectWholeSession(_ trace: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let lines = trace.split(separator: "\n").map(String.init)
        let wanted = [
            "> command  OpenSession (0x1002) tid=0 params=[0x1]", "< response OK (0x2001) tid=0",
            "> command  GetDeviceInfo (0x1001) tid=1", "< data     GetDeviceInfo tid=1 length ",
            "DeviceInfo: manufacturer \"mediashell\" model \"", "< response OK (0x2001) tid=1",
            "> command  GetStorageIDs (0x1004) tid=2", "storage ids (1): 0x10001",
            "> command  GetObjectPropList (0x9805)", "ObjectPropList: ",
            // The download: a partial read of the whole file (what resuming needs anyway).
            "> command  GetPartialObject", "< data     GetPartialObject", "> command  CloseSession (0x1003)", "> close",
        ]
        var position = 0
        for text in wanted {
            guard let found = lines[position...].firstIndex(where: { $0.contains(text) }) else {
                Issue.record("no line with '\(text)' after line \(position) of the trace:\n\(trace)", sourceLocation: sourceLocation)
                return
            }
            position = found
        }
        // Every container line has a time, a direction and a kind.
        let containers = lines.filter { !$0.hasPrefix("#") && !$0.hasPrefix("          ") }
        for line in containers {
            #expect(line.range(of: #"^ *\d+\.\d{3} [<>!] (connect|init|command|data|response|event|error|close) "#, options: .regularExpression) != nil,
                "\(line)", sourceLocation: sourceLocation)
        }
    }

    @Test func recordsAnInProcessSessionWithNamesAndBytes() throws {
        let fixture = try Fixture()
        let (result, trace) = try fixture.run("dir:" + fixture.card, redact: false, Self.commands)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: fixture.work + "/IMG_4711.JPG"))
        Self.expectWholeSession(trace)
        #expect(trace.contains("# open dir:" + fixture.card))
        #expect(trace.contains("names NOT redacted"))
        for name in Fixture.names { #expect(trace.contains("ObjectFileName=\"\(name)\""), "\(name)") }
        // A card folder's serial number is the card's identity, a hash (see CardIdentity).
        #expect(trace.range(of: #"serial "DIR-[0-9a-f]{12}""#, options: .regularExpression) != nil, "\(trace)")
        // The file's first bytes, as the device sent them (0 * 13 + 1, 1 * 13 + 1, ...).
        #expect(trace.contains("bytes 01 0E 1B 28 35 42"), "\(trace)")
    }

    /// `mediashell -c import` lists the card once: the open's listing is the card as it is now. After
    /// another command, `import` lists it afresh (a file may have come meanwhile).
    @Test func aScriptThatImportsRightAfterTheOpenListsTheCardOnce() throws {
        let fixture = try Fixture()
        func listings(_ commands: String) throws -> Int {
            let trace = fixture.work + "/trace-\(UUID().uuidString).txt"
            let result = try ProcessRunner.run(
                BuildProducts.mediashell,
                ["--camera", "dir:" + fixture.card, "--debug-ptp", trace, "-c", commands],
                environment: ["NO_COLOR": "1", "XDG_DATA_HOME": fixture.work + "/data-\(UUID().uuidString)"])
            #expect(result.status == 0, "\(result.stderr)")
            let text = (try? String(contentsOfFile: trace, encoding: .utf8)) ?? ""
            return text.split(separator: "\n").filter { $0.contains("> command  GetObjectPropList") }.count
        }
        #expect(try listings("import --to '\(fixture.work)/first/%f'") == 1)
        #expect(FileManager.default.fileExists(atPath: fixture.work + "/first/IMG_4711.JPG"))
        #expect(try listings("ls DCIM; import --to '\(fixture.work)/second/%f'") == 2)
        #expect(FileManager.default.fileExists(atPath: fixture.work + "/second/IMG_4711.JPG"))
    }

    @Test func redactionRemovesEveryNameSerialAndPath() throws {
        let fixture = try Fixture()
        let (result, trace) = try fixture.run("dir:" + fixture.card, redact: true, Self.commands)
        #expect(result.status == 0, "\(result.stderr)")
        Self.expectWholeSession(trace)
        #expect(trace.contains("names redacted"))
        for secret in Fixture.names + [Fixture.folder, "Anna", "Sylt", "MSH0", fixture.card, fixture.base] {
            #expect(!trace.contains(secret), "'\(secret)' is in the redacted trace")
        }
        // The file's number alone, not as digits inside another number (a disk's free bytes can hold 4711).
        #expect(trace.range(of: "(?<![0-9])4711(?![0-9])", options: .regularExpression) == nil, "'4711' is in the redacted trace")
        // Placeholders keep a file's kind and tell files apart.
        #expect(trace.contains(".JPG\"") && trace.contains(".MOV\""))
        #expect(trace.contains("serial \"<serial-1>\""), "the card's identity is redacted like any serial number")
        #expect(!trace.contains("DIR-"))
        #expect(trace.contains("# open dir:<path>"))
        // A file's content shows only its first 8 bytes; datasets that can hold names show none.
        #expect(trace.contains("bytes 01 0E 1B 28 35 42 4F 5C …"))
        #expect(!trace.contains("bytes 01 0E 1B 28 35 42 4F 5C 69"))
        #expect(trace.contains("GetObjectPropList tid=") && trace.contains("bytes withheld (may hold names)"))
    }

    @Test func recordsAPTPIPSessionWithEvents() throws {
        let fixture = try Fixture()
        let server = try ServeProcess(arguments: ["--writable", fixture.card])
        defer { _ = server.stop() }
        let (result, trace) = try fixture.run(
            "ptpip:127.0.0.1:\(server.port)", redact: true, Self.commands + "; capture")
        #expect(result.status == 0, "\(result.stderr)")
        Self.expectWholeSession(trace)
        #expect(trace.contains("# open ptpip:127.0.0.1:\(server.port)"))
        // The handshake, before the session's first command, each packet with what it carried (the GUIDs
        // and the names redacted).
        let peer = "127.0.0.1:\(server.port)"
        let handshake = [
            "> connect  TCP to \(peer) (command socket)",
            "> init     Init_Command_Request to \(peer): guid <serial-1> name \"<text-1>\" version 1.0",
            "< init     Init_Command_Ack from \(peer): connection 1 guid <serial-2> name \"<text-2>\"",
            "> connect  TCP to \(peer) (event socket)",
            "> init     Init_Event_Request to \(peer): connection 1", "< init     Init_Event_Ack from \(peer)",
            "> command  OpenSession (0x1002)",
        ]
        let lines = trace.split(separator: "\n").map(String.init)
        let places = handshake.map { text in lines.firstIndex { $0.contains(text) } }
        #expect(places.allSatisfy { $0 != nil } && places.map { $0 ?? 0 } == places.map { $0 ?? 0 }.sorted(), "\(trace)")
        #expect(trace.contains("> command  InitiateCapture (0x100E)"))
        #expect(trace.contains("< event    ObjectAdded (0x4002)"), "\(trace)")
        for secret in Fixture.names + [Fixture.folder] { #expect(!trace.contains(secret), "\(secret)") }
    }

    /// A camera that takes the TCP connection and never answers (a Fujifilm in its own Wi-Fi mode, a
    /// listener that is no camera): the open says which packet it waited for, after which, and where, and
    /// the trace holds the request sent and the step that went unanswered.
    @Test func anOpenThatTimesOutSaysWhichPacketItWaitedFor() throws {
        let fixture = try Fixture()
        let listener = try Socket.listen(host: "127.0.0.1", port: 0)  // the kernel takes the connection; nobody answers
        defer { listener.close() }
        let peer = "127.0.0.1:\(listener.localPort)"
        let trace = fixture.work + "/trace.txt"
        let result = try ProcessRunner.run(
            BuildProducts.mediashell, ["--camera", "sim:", "--debug-ptp", trace, "-c", "set timeout 0.5; open ptpip:\(peer); ls"],
            environment: ["NO_COLOR": "1"], timeout: 30)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains(
            "cannot open ptpip:\(peer): no Init_Command_Ack within 0.5 s after Init_Command_Request to \(peer)"), "\(result.stderr)")
        let text = (try? String(contentsOfFile: trace, encoding: .utf8)) ?? ""
        #expect(text.contains("> init     Init_Command_Request to \(peer): guid "), "\(text)")
        #expect(text.contains("! error    no Init_Command_Ack within 0.5 s after Init_Command_Request to \(peer)"), "\(text)")
        #expect(!text.contains("Init_Command_Ack from"))
    }

    @Test func aTraceThatCannotBeWrittenIsAClearError() throws {
        let result = try ProcessRunner.run(
            BuildProducts.mediashell, ["--camera", "sim:", "--debug-ptp", "/nonexistent-\(UUID().uuidString)/t", "-c", "ls"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--debug-ptp: cannot write the PTP trace"), "\(result.stderr)")
        let lonely = try ProcessRunner.run(BuildProducts.mediashell, ["--camera", "sim:", "--debug-ptp-redact", "-c", "ls"])
        #expect(lonely.status == 2 && lonely.stderr.contains("--debug-ptp-redact needs --debug-ptp FILE"))
    }
}
