import Foundation
import TestSupport
import Testing

/// The benchmarks read `serve`'s log through scripts/serve-log, run here against a real serve and a real
/// session: a line serve changes breaks this test, never a benchmark in silence (the session line once gained
/// the client's GUID and `scripts/bench --link` exited 1 with no output). On 127.0.0.1, a port chosen at run time.
@Suite(.serialized, .tags(.port), .notInFastRun) struct ServeLogScriptTests {
    static let script = BuildProducts.packageRoot.appendingPathComponent("scripts/serve-log").path

    /// `commands` run by bash with scripts/serve-log sourced, as the benchmarks source it.
    func bash(_ commands: String) throws -> ProcessResult {
        try ProcessRunner.run("/bin/bash", ["-c", "set -euo pipefail; source '\(Self.script)'; " + commands], timeout: 60)
    }

    @Test func theScriptReadsServesPortAndSessionLine() throws {
        let base = try TemporaryFolder("msh-serve-log")
        try base.write("card/DCIM/100MEDIA/DJI_0001.JPG", Array(repeating: 0xFF, count: 5000))
        let server = try ServeProcess(arguments: [base.path("card")])
        defer { _ = server.stop() }
        let client = try ProcessRunner.run(
            BuildProducts.mediashell,
            ["-n", "--camera", "ptpip:127.0.0.1:\(server.port)", "--download-dir", base.path("dl"), "-c", "fetch DCIM/100MEDIA/DJI_0001.JPG"],
            environment: ["HOME": base.path("home"), "XDG_STATE_HOME": base.path("state"), "LANG": "C"], timeout: 60)
        #expect(client.status == 0, "\(client.stderr)")
        #expect(server.waitForLog("serve: session ", count: 1), "\(server.log)")
        let log = try base.write("serve.log", text: server.log)
        let read = try bash(
            "serve_log_port '\(log)'; serve_log_sessions '\(log)'; serve_log_wait_for_sessions '\(log)' 1; "
                + "serve_log_last_session '\(log)' requests; serve_log_last_session '\(log)' bytes")
        #expect(read.status == 0, "\(read.stderr)")
        let values = read.stdout.split(separator: "\n").map(String.init)
        try #require(values.count == 4, "\(read.stdout) \(read.stderr)")
        #expect(values[0] == "\(server.port)" && values[1] == "1")
        let requests = try #require(Int(values[2])), bytes = try #require(Int(values[3]))
        // OpenSession, GetDeviceInfo, GetStorageIDs, the listing, GetObject, CloseSession at least; the file's
        // 5000 bytes among the bytes sent; and both as the line says them.
        #expect(requests >= 5 && bytes >= 5000, "\(requests) requests, \(bytes) bytes")
        let line = try #require(server.log.split(separator: "\n").first { $0.hasPrefix("serve: session ") })
        #expect(line.contains(": \(requests) requests, ") && line.contains("(\(bytes) bytes) sent in "), "\(line)")
    }

    /// A Fujifilm persona is reached by its `fuji:` URL, read from its first line as the bench reads it.
    @Test func theScriptReadsAFujiPersonasURL() throws {
        let base = try TemporaryFolder("msh-serve-log-fuji")
        try base.write("card/DCIM/100_FUJI/DSCF0001.JPG", Array(repeating: 0xFF, count: 500))
        let server = try ServeProcess(arguments: ["--persona", "fuji-x", base.path("card")])
        defer { _ = server.stop() }
        let log = try base.write("serve.log", text: server.log)
        let read = try bash("serve_log_fuji_url '\(log)'")
        #expect(read.status == 0, "\(read.stderr)")
        let url = read.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(url.hasPrefix("fuji:127.0.0.1:\(server.port):\(server.eventPort ?? 0)"), "\(url) from \(server.log)")
        #expect(!url.hasSuffix(":"), "\(url)")
    }

    /// A session line the script cannot read, or none, stops the benchmark that asked: status 1 and a line on
    /// standard error that names what it could not read.
    @Test func aLineItCannotReadIsSaidAndFails() throws {
        let base = try TemporaryFolder("msh-serve-log-bad")
        let odd = "serve: session 127.0.0.1:40000 'vm' GUID 83D5: 8 requests, 4 KB sent"
        let log = try base.write("serve.log", text: "serve: demo card as a PTP/IP camera on ptpip:127.0.0.1:40001\n\(odd)\n")
        let bytes = try bash("serve_log_last_session '\(log)' bytes")
        #expect(bytes.status == 1 && bytes.stdout.isEmpty, "\(bytes.stdout)")
        #expect(bytes.stderr.contains("cannot read the bytes") && bytes.stderr.contains(odd), "\(bytes.stderr)")
        let empty = try base.write("empty.log", text: "serve: demo card as a PTP/IP camera on ptpip:127.0.0.1:40001\n")
        let none = try bash("serve_log_last_session '\(empty)' requests")
        #expect(none.status == 1 && none.stderr.contains("no session line"), "\(none.stderr)")
    }
}
