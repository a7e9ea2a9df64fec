import Foundation
import TestSupport
import Testing

/// SIGTERM and SIGHUP sent to the `mediashell` binary in the middle of a `fetch` (issue 17): the fetch ends
/// as on Ctrl-C (the `.part` keeps what arrived, synced), the camera session is closed, the exit status is
/// 143 or 129, and the next fetch continues the `.part` to a byte-identical file. A second signal while the
/// shell is closing ends it at once. Over `dir:` (the in-process camera) and PTP/IP (`mediashell serve`).
@Suite(.tags(.process, .port), .notInFastRun) struct SignalTests {
    /// A card folder with one 6 MB file, a download folder, and the file's bytes.
    final class Setup {
        let root: String
        let card: String
        let downloads: String
        let original: Data

        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("msh-signal-\(UUID().uuidString)").path
            card = root + "/card"
            downloads = root + "/out"
            try FileManager.default.createDirectory(atPath: card + "/DCIM/100MEDIA", withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: downloads, withIntermediateDirectories: true)
            var bytes = [UInt8](repeating: 0, count: 6_000_000)
            for i in bytes.indices { bytes[i] = UInt8(truncatingIfNeeded: (i &* 2_654_435_761) >> 13) }
            original = Data(bytes)
            try original.write(to: URL(fileURLWithPath: card + "/DCIM/100MEDIA/BIG.BIN"))
        }

        deinit { try? FileManager.default.removeItem(atPath: root) }

        var part: String { downloads + "/BIG.BIN.part" }
        var fetched: String { downloads + "/BIG.BIN" }
    }

    /// A `mediashell` run whose output goes to files, so the test can read it while it runs.
    final class Running {
        let process = Process()
        /// Where its output files are.
        let folder: String
        let output: String
        let errors: String

        init(_ arguments: [String], in folder: String, environment: [String: String] = [:]) throws {
            self.folder = folder
            output = folder + "/shell-\(UUID().uuidString).out"
            errors = output + ".err"
            _ = FileManager.default.createFile(atPath: output, contents: nil)
            _ = FileManager.default.createFile(atPath: errors, contents: nil)
            process.executableURL = URL(fileURLWithPath: BuildProducts.mediashell)
            process.arguments = arguments
            if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
            process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errors))
            try process.run()
        }

        var errorText: String { (try? String(contentsOfFile: errors, encoding: .utf8)) ?? "" }
        var outputText: String { (try? String(contentsOfFile: output, encoding: .utf8)) ?? "" }

        /// Waits (bounded) until `condition`, about a file in `watched` or the shell's own output, holds or the
        /// process ended; true when it holds. Woken by inotify on those folders and by the process's end.
        func wait(watching watched: String, timeout: TimeInterval = 30, until condition: () -> Bool) throws -> Bool {
            try waitForFile(in: watched, folder, until: condition, orEndOf: process, timeout: timeout)
        }

        /// Waits (bounded) for the process to end; false when it is still running (then it is killed).
        func waitForExit(timeout: TimeInterval = 30) -> Bool {
            if !TestSupport.waitForExit(process, timeout: timeout) {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                return false
            }
            return true
        }
    }

    static func size(_ path: String) -> UInt64 {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.uint64Value ?? 0
    }

    /// Starts a rate-limited fetch of BIG.BIN from `camera`, signals it once the `.part` has bytes, and checks
    /// the ending; then fetches again and checks the file.
    func signalMidFetch(_ signal: Int32, camera: String, setup: Setup) throws {
        let fetch = "set limit-rate 1M; cd DCIM/100MEDIA; fetch -o \(setup.downloads) BIG.BIN"
        let shell = try Running(["--camera", camera, "-c", fetch], in: setup.root)
        try #require(shell.wait(watching: setup.downloads) { Self.size(setup.part) > 0 }, "the fetch never started: \(shell.errorText)")
        kill(shell.process.processIdentifier, signal)
        try #require(shell.waitForExit(), "mediashell did not end after signal \(signal)")

        #expect(shell.process.terminationReason == .exit, "ended by the signal itself, not by the shell")
        #expect(shell.process.terminationStatus == 128 + signal)
        let errors = shell.errorText
        #expect(errors.contains("fetch: interrupted: BIG.BIN stopped at"), "\(errors)")
        #expect(errors.contains(".part is kept"))
        #expect(errors.contains("the camera session is closed"), "\(errors)")
        let kept = try Data(contentsOf: URL(fileURLWithPath: setup.part))
        #expect(kept.count > 0 && kept.count < setup.original.count)
        #expect(kept == setup.original.prefix(kept.count), "the .part is what the camera sent")

        let again = try Running(["--camera", camera, "-c", "cd DCIM/100MEDIA; fetch -o \(setup.downloads) BIG.BIN"], in: setup.root)
        try #require(again.waitForExit(timeout: 60))
        #expect(again.process.terminationStatus == 0, "\(again.errorText)")
        #expect(again.outputText.contains("continued from"), "\(again.outputText)")
        #expect(FileManager.default.contentsEqual(atPath: setup.fetched, andPath: setup.card + "/DCIM/100MEDIA/BIG.BIN"))
    }

    @Test(arguments: [SIGTERM, SIGHUP])
    func aSignalEndsAFetchFromAFolderAsCtrlCDoes(signal: Int32) throws {
        let setup = try Setup()
        try signalMidFetch(signal, camera: "dir:" + setup.card, setup: setup)
    }

    @Test(arguments: [SIGTERM, SIGHUP])
    func aSignalEndsAFetchOverPTPIPAsCtrlCDoes(signal: Int32) throws {
        let setup = try Setup()
        let server = try ServeProcess(arguments: [setup.card])
        defer { _ = server.stop() }
        try signalMidFetch(signal, camera: "ptpip:127.0.0.1:\(server.port)", setup: setup)
    }

    /// The camera never answers CloseSession (`serve --quirks stall-close`): the first SIGTERM ends the fetch
    /// and the shell waits for CloseSession's answer, which would take the 300 s timeout; the second SIGTERM
    /// ends it at once. The camera answers everything before CloseSession, so where the first signal lands
    /// in the fetch (a rate-limit wait, a chunk on its way) does not matter.
    @Test func aSecondSignalWhileClosingExitsAtOnce() throws {
        let setup = try Setup()
        let server = try ServeProcess(arguments: ["--quirks", "stall-close", setup.card])
        defer { _ = server.stop() }
        let script = "set timeout 300; open ptpip:127.0.0.1:\(server.port); set limit-rate 1k; cd DCIM/100MEDIA; "
            + "fetch -o \(setup.downloads) BIG.BIN"
        let shell = try Running(["--camera", "sim:", "-c", script], in: setup.root)
        try #require(shell.wait(watching: setup.downloads) { Self.size(setup.part) > 0 }, "the fetch never started: \(shell.errorText)")
        kill(shell.process.processIdentifier, SIGTERM)
        try #require(
            shell.wait(watching: setup.downloads) { shell.errorText.contains("fetch: interrupted:") }, "the fetch did not stop: \(shell.errorText)")
        try #require(server.waitForLog("CloseSession left unanswered", count: 1), "\(server.log)")
        #expect(shell.process.isRunning, "closing waits for the camera's answer")
        kill(shell.process.processIdentifier, SIGTERM)
        #expect(shell.waitForExit(timeout: 60), "the second SIGTERM did not end it")
        #expect(shell.process.terminationStatus == 143)
        let kept = try Data(contentsOf: URL(fileURLWithPath: setup.part))
        #expect(kept == setup.original.prefix(kept.count))
    }
}
