import Foundation

/// A command-line tool the tests compare against (ffprobe, exiftool), run when it is installed.
struct ExternalTool: Sendable {
    let executable: String

    static let ffprobe = ExternalTool.find("ffprobe")
    static let exiftool = ExternalTool.find("exiftool")

    /// The tool named `name` on PATH, or nil.
    static func find(_ name: String) -> ExternalTool? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return ExternalTool(executable: candidate) }
        }
        return nil
    }

    /// Runs the tool and returns its standard output; throws if it exits non-zero.
    func run(_ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ToolFailure(message: "\(executable) \(arguments.joined(separator: " ")) exited \(process.terminationStatus)")
        }
        return data
    }

    struct ToolFailure: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}
