import Foundation

/// ImageMagick and temp files for tests that need real JPEGs made outside our code.
enum Tools {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// A fresh directory under the system temp dir, removed by the caller.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("imaging-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Runs a program and returns its standard output; throws if it exits non-zero.
    @discardableResult
    static func run(_ program: String, _ arguments: [String]) throws -> String {
        let process = Process()
        // Debian's ImageMagick in /usr/bin, ahead of any other `convert` earlier on PATH.
        let debian = "/usr/bin/" + program
        if FileManager.default.isExecutableFile(atPath: debian) {
            process.executableURL = URL(fileURLWithPath: debian)
            process.arguments = arguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [program] + arguments
        }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "\(program) \(arguments.joined(separator: " ")) failed: \(String(decoding: errData, as: UTF8.self))")
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// "FORMAT WxH" as ImageMagick's `identify` sees the bytes.
    static func identify(_ bytes: [UInt8]) throws -> String {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("image")
        try Data(bytes).write(to: file)
        return try run("identify", ["-format", "%m %wx%h", file.path]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Makes a JPEG with ImageMagick `convert` from `arguments` (input spec and options) and returns its bytes.
    static func convert(_ arguments: [String]) throws -> [UInt8] {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("out.jpg")
        try run("convert", arguments + [file.path])
        return Array(try Data(contentsOf: file))
    }
}
