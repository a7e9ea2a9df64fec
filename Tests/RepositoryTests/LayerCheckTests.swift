import Foundation
import Testing
import TestSupport

/// `scripts/check-layers` run on a copy of this package's Package.swift and docs/architecture.md with one file planted in a
/// module: each way Swift spells an import that crosses a layer must be caught, and the copy as it is must pass.
@Suite("scripts/check-layers", .serialized, .tags(.process), .notInFastRun)
struct LayerCheckTests {
    /// The repository's root, found from this file's path.
    static let root: URL = {
        var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
            url = url.deletingLastPathComponent()
        }
        return url
    }()

    /// A copy of Package.swift and docs/architecture.md (no sources: the script skips modules without a folder) with
    /// `files` (path → text) added; the script's exit status and what it wrote to standard error.
    func check(planting files: [String: String] = [:], readme edit: (String) -> String = { $0 }) throws
        -> (status: Int32, errors: String)
    {
        let folder = try TemporaryFolder("check-layers")
        let manager = FileManager.default
        try manager.copyItem(
            atPath: Self.root.appendingPathComponent("Package.swift").path, toPath: folder.path("Package.swift"))
        let readme = try String(contentsOf: Self.root.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
        try manager.createDirectory(atPath: folder.path("docs"), withIntermediateDirectories: true)
        try edit(readme).write(toFile: folder.path("docs/architecture.md"), atomically: true, encoding: .utf8)
        for (path, text) in files {
            let url = URL(fileURLWithPath: folder.path(path))
            try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        let process = Process()
        process.executableURL = Self.root.appendingPathComponent("scripts/check-layers")
        process.arguments = ["--root", folder.path]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    @Test func thePackageAsItIsPasses() throws {
        let result = try check()
        #expect(result.status == 0, "\(result.errors)")
    }

    /// Every form of import, planted where its module may not go: the terminal toolkit knows no camera, the
    /// shell imports no transport and no virtual camera, the words below it know neither the shell nor the
    /// batches that use them, and the pure modules nothing that does I/O.
    @Test(arguments: [
        ("Sources/TerminalKit/Planted.swift", "import MediaManager", "TerminalKit imports MediaManager"),
        ("Sources/TerminalKit/Planted.swift", "private import PTP", "TerminalKit imports PTP"),
        ("Sources/TerminalKit/Planted.swift", "@_implementationOnly import Connectors", "TerminalKit imports Connectors"),
        ("Sources/TerminalKit/Planted.swift", "@preconcurrency internal import MediaFormats", "TerminalKit imports MediaFormats"),
        ("Sources/Shell/Planted.swift", "import struct VirtualCamera.Card", "Shell imports VirtualCamera"),
        ("Sources/Shell/Planted.swift", "public import PTPIP", "Shell imports PTPIP"),
        ("Sources/Shell/Planted.swift", "fileprivate import class PTPUSB.USBTransport", "Shell imports PTPUSB"),
        ("Sources/Shell/Planted.swift", "  @testable import PTPIP.PTPIPInitiator", "Shell imports PTPIP"),
        ("Sources/Words/Planted.swift", "import Shell", "Words imports Shell"),
        ("Sources/Words/Planted.swift", "private import Transfers", "Words imports Transfers"),
        ("Sources/Words/Planted.swift", "import class VirtualCamera.Card", "Words imports VirtualCamera"),
        // The pure modules import only pure modules: Words takes facts, it does not fetch them.
        ("Sources/Words/Planted.swift", "import MediaManager", "Words is pure and imports MediaManager"),
        ("Sources/Words/Planted.swift", "private import POSIX", "Words is pure and imports POSIX"),
        ("Sources/Words/Planted.swift", "import TerminalKit", "Words is pure and imports TerminalKit"),
        ("Sources/CameraFacts/Planted.swift", "import PTP", "CameraFacts is pure and imports PTP"),
        ("Sources/TextKit/Planted.swift", "@preconcurrency import Dispatch", "TextKit is pure and imports Dispatch"),
        ("Sources/PTPFacts/Planted.swift", "import Glibc", "PTPFacts is pure and imports Glibc"),
    ])
    func anImportAcrossALayerFails(file: String, line: String, complaint: String) throws {
        let result = try check(planting: [file: "import Foundation\n\(line)\n\nlet planted = 1\n"])
        #expect(result.status == 1)
        #expect(result.errors.contains(complaint), "\(result.errors)")
    }

    /// (The planted folder holds only this file, so the script finds the folder's declared modules unused:
    /// what matters is that it names neither module the comment and the string mention.)
    @Test func anImportInsideCodeOrACommentIsNotAnImport() throws {
        let text = "// import PTPIP\nlet text = \"import VirtualCamera\"\n"
        let result = try check(planting: ["Sources/Shell/Planted.swift": text])
        #expect(!result.errors.contains("imports PTPIP"), "\(result.errors)")
        #expect(!result.errors.contains("imports VirtualCamera"), "\(result.errors)")
        #expect(result.errors.contains("Shell declares"), "the planted folder was checked: \(result.errors)")
    }

    /// A pure module that reads a folder, closes a descriptor or asks for the current folder is refused,
    /// and the line is named.
    @Test(arguments: [
        ("Sources/Words/Planted.swift", "let names = try? FileManager.default.contentsOfDirectory(atPath: \"/\")"),
        ("Sources/Words/Planted.swift", "let text = try? String(contentsOfFile: \"/etc/hostname\", encoding: .utf8)"),
        ("Sources/CameraFacts/Planted.swift", "func shut(_ fd: Int32) { _ = close(fd) }"),
        ("Sources/PTPFacts/Planted.swift", "let here = getcwd(nil, 0)"),
        ("Sources/TextKit/Planted.swift", "let columns = ProcessInfo.processInfo.environment[\"COLUMNS\"]"),
    ])
    func aPureModuleThatDoesIOFails(file: String, line: String) throws {
        let result = try check(planting: [file: "import Foundation\n\(line)\n"])
        #expect(result.status == 1)
        #expect(result.errors.contains("is pure but does I/O: \(file):2:"), "\(result.errors)")
    }

    /// Words about I/O are not I/O: a comment, a string, and a function of its own named like a call.
    @Test func wordsAboutIOAreNotIO() throws {
        let text = "// FileManager.default, close(fd)\nlet text = \"cannot open(2) it\"\nfunc read(offset: Int) {}\n"
        let result = try check(planting: ["Sources/Words/Planted.swift": text])
        #expect(!result.errors.contains("does I/O"), "\(result.errors)")
        #expect(result.errors.contains("Words declares"), "the planted folder was checked: \(result.errors)")
    }

    @Test func aDrawingThatDriftsFromThePackageFails() throws {
        let result = try check(readme: { $0.replacingOccurrences(of: "mediashell       -> CommandKit, Mount, Serve, Shell, TerminalKit", with: "mediashell       -> Shell") })
        #expect(result.status == 1)
        #expect(result.errors.contains("Layout drawing"), "\(result.errors)")
    }
}
