import Foundation
import PTP
@testable import PTPIP
import TestSupport
import Testing

private let gphoto2 = "/usr/bin/gphoto2"

/// Runs gphoto2 against `port` with a private HOME, in `directory`; returns its exit status and output.
private func runGphoto2(port: UInt16, in directory: URL, _ arguments: [String]) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: gphoto2)
    process.arguments = ["--port", "ptpip:127.0.0.1:\(port):\(port)", "--camera", "PTP/IP Camera"] + arguments
    process.currentDirectoryURL = directory
    var environment = ProcessInfo.processInfo.environment
    environment["HOME"] = directory.path
    environment["LANG"] = "C"
    process.environment = environment
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    let done = Mailbox<Int32>()
    process.terminationHandler = { done.put($0.terminationStatus) }
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    guard let status = done.take(timeout: 60) else {
        process.terminate()
        return (-1, text + "\n(gphoto2 did not end within 60 s)")
    }
    return (status, text)
}

extension Network {
    /// The independent client: gphoto2 must accept our responder's handshake and data phases
    /// (Data packets of 1 MiB, the last one as End_Data). gphoto2 does not ask for an empty file's data.
    @Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: gphoto2)), .tags(.process, .port), .notInFastRun)
    struct Gphoto2Smoke {
        @Test func summaryAndDownloads() throws {
            let log = LogLines()
            let server = try startServer(log: log, handler: TestDevice.handler(card: true))
            defer { server.stop() }
            let directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("ptpip-gphoto2-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }

            let summary = try runGphoto2(port: server.port, in: directory, ["--summary"])
            #expect(summary.status == 0, "\(summary.output)\nserver log: \(log.lines.all)")
            #expect(summary.output.contains("mediashell tests"), "\(summary.output)")
            #expect(summary.output.contains("Loopback Responder"), "\(summary.output)")

            let get = try runGphoto2(port: server.port, in: directory, ["--get-all-files", "--force-overwrite"])
            #expect(get.status == 0, "\(get.output)\nserver log: \(log.lines.all)")
            let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            try #require(files.contains("PATTERN.BIN"), "files: \(files)\n\(get.output)\nserver log: \(log.lines.all)")
            let pattern = try Data(contentsOf: directory.appendingPathComponent("PATTERN.BIN"))
            #expect(pattern.count == 5 << 20 + 3)
            #expect(Array(pattern) == PTPIPTests.pattern(5 << 20 + 3))
            #expect(try Data(contentsOf: directory.appendingPathComponent("EMPTY.BIN")).isEmpty)
        }
    }
}
