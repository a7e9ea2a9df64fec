import Foundation
import POSIX
import TestSupport
import Testing

/// Where the package's build products are (the built `mediashell` binary among them).
enum BuildProducts {
    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// The `mediashell` binary next to this test bundle (swift build --build-tests builds it).
    static var mediashell: String {
        for bundle in Bundle.allBundles {
            let candidate = bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("mediashell").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return packageRoot.appendingPathComponent(".build/debug/mediashell").path
    }
}

/// The result of running a program to completion.
struct ProcessResult {
    var status: Int32
    var stdout: String
    var stderr: String
    var timedOut: Bool
}

enum ProcessRunner {
    /// Runs `executable` with `arguments`, waits up to `timeout` seconds (then kills it).
    static func run(
        _ executable: String, _ arguments: [String], directory: String? = nil, environment: [String: String] = [:],
        timeout: TimeInterval = 60
    ) throws -> ProcessResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = PipeCollector()
        let err = PipeCollector()
        process.standardOutput = out.pipe
        process.standardError = err.pipe
        process.standardInput = FileHandle.nullDevice
        let finished = Mailbox<Void>()
        process.terminationHandler = { _ in finished.put(()) }
        try process.run()
        var timedOut = false
        if finished.take(timeout: timeout) == nil {
            timedOut = true
            process.terminate()
            _ = finished.take(timeout: 5)
        }
        out.waitForEnd(timeout: 5)
        err.waitForEnd(timeout: 5)
        return ProcessResult(status: process.terminationStatus, stdout: out.text, stderr: err.text, timedOut: timedOut)
    }

    static func which(_ name: String) -> String? {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }
}


/// `mediashell serve` running as its own process on a port the system chose.
final class ServeProcess: @unchecked Sendable {
    let process = Process()
    let port: UInt16
    /// The event port of a Fujifilm persona (`fuji:127.0.0.1:PORT:EVENTPORT`); nil for PTP/IP.
    let eventPort: UInt16?
    /// The live-view port of a Fujifilm persona (`fuji:127.0.0.1:PORT:EVENTPORT:LIVEVIEWPORT`, else the
    /// port after the event port); nil for PTP/IP.
    let liveViewPort: UInt16?
    private let stderr = PipeCollector()
    private let exited = Mailbox<Void>()

    /// `port` 0 lets the system choose; another is for a camera that comes back where it was.
    init(arguments: [String], port requested: UInt16 = 0, environment: [String: String] = [:]) throws {
        let exited = self.exited
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        process.terminationHandler = { _ in exited.put(()) }
        process.executableURL = URL(fileURLWithPath: BuildProducts.mediashell)
        process.arguments = ["serve", "--listen", "127.0.0.1:\(requested)"] + arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = stderr.pipe
        try process.run()
        // Wait (bounded) for the line that names the port.
        var found: UInt16?
        var foundEvents: UInt16?
        var foundLiveView: UInt16?
        stderr.wait(timeout: 30) { data in
            let text = String(decoding: data, as: UTF8.self)
            if let range = text.range(of: "ptpip:127.0.0.1:"), let port = UInt16(text[range.upperBound...].prefix { $0.isNumber }) {
                found = port
                return true
            }
            // A Fujifilm persona: fuji:127.0.0.1:PORT:EVENTPORT[:LIVEVIEWPORT].
            if let range = text.range(of: "fuji:127.0.0.1:") {
                let ports = text[range.upperBound...].prefix { $0.isNumber || $0 == ":" }.split(separator: ":")
                if (2...3).contains(ports.count), let command = UInt16(ports[0]), let events = UInt16(ports[1]) {
                    found = command
                    foundEvents = events
                    foundLiveView = ports.count > 2 ? UInt16(ports[2]) : events &+ 1
                    return true
                }
            }
            return false
        }
        guard let found else {
            process.terminate()
            throw ServeFailed(log: stderr.text)
        }
        port = found
        eventPort = foundEvents
        liveViewPort = foundLiveView
    }

    var log: String { stderr.text }

    /// Waits (up to `timeout`) until the server's log holds `count` lines containing `text`.
    @discardableResult
    func waitForLog(_ text: String, count: Int, timeout: TimeInterval = 30) -> Bool {
        stderr.wait(timeout: timeout) { data in
            String(decoding: data, as: UTF8.self).components(separatedBy: "\n").filter { $0.contains(text) }.count >= count
        }
    }

    /// The server's open descriptors (how many) and live threads (their ids), from /proc.
    struct Resources {
        var fds: Int
        var threads: Set<pid_t>
    }

    var pid: Int32 { process.processIdentifier }

    func resources() throws -> Resources {
        let fds = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count
        return Resources(fds: fds, threads: Set(liveThreads(of: "\(pid)").keys))
    }

    /// The resources once every thread that `earlier` did not have has ended (a session's thread closes its
    /// socket and leaves /proc a moment after its last log line): each waited on through a pidfd of its own
    /// (PIDFD_THREAD), all within `timeout`; one still running then is counted as it is.
    func resources(afterThreadsNewerThan earlier: Resources, timeout: TimeInterval = 5) throws -> Resources {
        _ = try waitForThreadsToEnd(try resources().threads.subtracting(earlier.threads), until: .after(timeout))
        return try resources()
    }

    /// Stops the server with SIGINT as a user would, and waits (bounded) for it to exit.
    func stop() -> Int32? {
        guard process.isRunning else { return process.terminationStatus }
        kill(pid, SIGINT)
        if exited.take(timeout: 10) == nil {
            process.terminate()
            _ = exited.take(timeout: 5)
            return nil
        }
        return process.terminationStatus
    }
}

struct ServeFailed: Error, CustomStringConvertible {
    let log: String
    var description: String { "mediashell serve did not start: \(log)" }
}
