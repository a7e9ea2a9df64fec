import Foundation
import POSIX
import TestSupport

/// The built `mediashell` binary run as a process, with a bound on how long it may take.
enum ShellBinary {
    /// `.build/<config>/mediashell` beside the test bundle.
    static let path: String = {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("mediashell").path
        if FileManager.default.isExecutableFile(atPath: beside) { return beside }
        // Package root from this file: Tests/ShellTests/Support/BinaryRunner.swift
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug/mediashell").path
    }()

    static var exists: Bool { FileManager.default.isExecutableFile(atPath: path) }

    struct Result {
        var status: Int32
        var standardOutput: String
        var standardError: String
        var timedOut: Bool
        var errorLines: [String] { standardError.split(separator: "\n").map(String.init) }
        var outputLines: [String] { standardOutput.split(separator: "\n").map(String.init) }
    }

    /// Runs the binary with `arguments`, feeding `input` on standard input (a pipe: batch mode).
    static func run(
        _ arguments: [String], input: String = "", directory: String? = nil, environment: [String: String] = [:],
        timeout: TimeInterval = 30
    ) throws -> Result {
        try runProgram(path, arguments, input: input, directory: directory, environment: environment, timeout: timeout)
    }

    static func runProgram(
        _ program: String, _ arguments: [String], input: String = "", directory: String? = nil,
        environment: [String: String] = [:], timeout: TimeInterval = 30
    ) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        process.environment = env
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let stdin = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        let finished = Mailbox<Void>()
        process.terminationHandler = { _ in finished.put(()) }
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try? stdin.fileHandleForWriting.close()
        // Read both pipes while the process runs, so that a chatty process cannot fill one and block.
        let outputData = ReadAll(stdout.fileHandleForReading)
        let errorData = ReadAll(stderr.fileHandleForReading)
        var timedOut = false
        if finished.take(timeout: timeout) == nil {
            timedOut = true
            process.terminate()
            if finished.take(timeout: 10) == nil {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
            }
        }
        return Result(
            status: process.terminationStatus, standardOutput: outputData.text(), standardError: errorData.text(),
            timedOut: timedOut)
    }
}

/// Reads a pipe to its end on a thread of its own.
final class ReadAll: Sendable {
    private let data = LockedCondition<Data?>(nil)

    init(_ handle: FileHandle) {
        let thread = Thread { [data] in
            let all = handle.readDataToEndOfFile()
            data.change { $0 = all }
        }
        thread.start()
    }

    /// What was read, once the pipe's end came (at most a minute after the program ended: its writers are
    /// gone by then).
    func text() -> String {
        let read = data.wait(until: .after(60), for: { $0 != nil }) { $0 }
        return String(decoding: (read ?? nil) ?? Data(), as: UTF8.self)
    }
}
