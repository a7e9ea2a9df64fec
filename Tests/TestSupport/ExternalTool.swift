import Foundation

/// A command-line tool the tests compare against or make inputs with (ffprobe, ffmpeg, mpv, exiftool), used
/// when it is installed and skipped, saying so, when it is not.
public struct ExternalTool: Sendable {
    public let executable: String

    public static let ffprobe = find("ffprobe")
    public static let ffmpeg = find("ffmpeg")
    public static let mpv = find("mpv")
    public static let exiftool = find("exiftool")

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
