import Foundation

/// A command-line tool the tests compare against or make inputs with (ffprobe, ffmpeg, mpv, exiftool), used
/// when it is installed and skipped, saying so, when it is not.
public struct ExternalTool: Sendable {
    public let executable: String

    public static let ffprobe = find("ffprobe")
    public static let ffmpeg = find("ffmpeg")
    public static let mpv = find("mpv")
    public static let exiftool = find("exiftool")
    /// `ascmhl-debug` of PyPI's ascmhl (its `verify` and `xsd-schema-check`), in the virtualenv scripts/setup
    /// makes under the user's cache.
    public static let ascmhlDebug = inAscmhlVirtualenv("ascmhl-debug")
    /// `ascmhl` of PyPI's ascmhl (its `create`), beside `ascmhlDebug`.
    public static let ascmhl = inAscmhlVirtualenv("ascmhl")

    public init(executable: String) { self.executable = executable }

    /// The tool named `name` on PATH, or nil.
    public static func find(_ name: String) -> ExternalTool? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return ExternalTool(executable: candidate) }
        }
        return nil
    }

    /// The virtualenv scripts/setup installs ascmhl into, with the schemas (`xsd/`) it checks files against.
    public static let ascmhlVirtualenv: String = {
        let environment = ProcessInfo.processInfo.environment
        let cache = environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? (NSHomeDirectory() + "/.cache")
        return cache + "/mediashell-test-tools/ascmhl-venv"
    }()

    /// `name` in ascmhl's virtualenv, when it and the schemas are there.
    static func inAscmhlVirtualenv(_ name: String) -> ExternalTool? {
        let path = ascmhlVirtualenv + "/bin/" + name
        guard FileManager.default.isExecutableFile(atPath: path),
            FileManager.default.fileExists(atPath: ascmhlVirtualenv + "/xsd/ASCMHLDirectory__combined.xsd")
        else { return nil }
        return ExternalTool(executable: path)
    }

    /// Runs the tool to completion and returns its standard output; throws if it exits non-zero.
    @discardableResult
    public func run(_ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ToolFailure(description: "\(executable) \(arguments.joined(separator: " ")) exited \(process.terminationStatus)")
        }
        return data
    }

    /// Runs the tool to completion and returns its exit status with what it printed (standard output and
    /// error together, in order): for a tool whose failing is the answer (a checker).
    public func status(_ arguments: [String], in folder: String? = nil) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let folder { process.currentDirectoryURL = URL(fileURLWithPath: folder) }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    public struct ToolFailure: Error, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }
}

/// The demo media committed in Sources/VirtualCamera/DemoMedia, found from this file's path so tests need
/// no bundle lookups.
public enum DemoMedia {
    public static let directory: URL = {
        var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while url.path != "/" {
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
                return url.appendingPathComponent("Sources/VirtualCamera/DemoMedia")
            }
            url = url.deletingLastPathComponent()
        }
        fatalError("no Package.swift above \(#filePath)")
    }()

    public static func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
}
