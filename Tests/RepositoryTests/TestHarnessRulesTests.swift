import Foundation
import TestSupport
import Testing

/// Rules for the code that runs children in tests, checked on the tree itself.
@Suite struct TestHarnessRulesTests {
    /// `FileHandle.readabilityHandler` is a libdispatch read source on Linux, and one torn down at its
    /// pipe's end of file crashed the whole test process in CI (signal 11 in `_dispatch_event_loop_drain`).
    /// A child's output is read by TestSupport's `PipeCollector` instead, on a thread of its own.
    @Test func noReadabilityHandlerOutsidePipeCollector() throws {
        let root = LayerCheckTests.root
        var offenders: [String] = []
        for folder in ["Sources", "Tests"] {
            let base = root.appendingPathComponent(folder)
            let walker = FileManager.default.enumerator(atPath: base.path)
            while let relative = walker?.nextObject() as? String {
                guard relative.hasSuffix(".swift"), !relative.hasSuffix("PipeCollector.swift"),
                    !relative.hasSuffix("TestHarnessRulesTests.swift")
                else { continue }
                let text = try String(contentsOfFile: base.appendingPathComponent(relative).path, encoding: .utf8)
                if text.contains("readabilityHandler") { offenders.append(folder + "/" + relative) }
            }
        }
        #expect(offenders.isEmpty, "use PipeCollector: \(offenders)")
    }

    /// What starts a program, binds a port or mounts, in a test's own text.
    static let needsMoreThanItsProcess = [
        "ShellBinary.run", "Expect.run", "ProcessRunner.run", "ChildProcess.spawn", "ChildProcess.run", "Process()", "startServer(",
        "PTPIPServer(", "FujiServer(", "Socket.listen", "FuseBridge",
    ]

    /// The test files (path: text) that start a program, bind a port or mount, but say nothing of it: no
    /// `.notInFastRun` (and its tag), so `MEDIASHELL_TESTS=fast` would run them. A file that extends a
    /// suite declared tagged in another (`extension USBVMTests`) has that suite's traits.
    static func untagged(_ files: [String: String]) -> [String] {
        let declaredTagged = Set(files.values.filter { $0.contains(".notInFastRun") }.flatMap { text in
            text.matches(of: /(?:struct|enum|final class|class) (\w+)/).map { String($0.1) }
        })
        return files.filter { _, text in
            guard needsMoreThanItsProcess.contains(where: text.contains), !text.contains(".notInFastRun") else { return false }
            let extended = text.matches(of: /(?m)^extension (\w+)/).map { String($0.1) }
            return extended.isEmpty || !extended.allSatisfy(declaredTagged.contains)
        }.keys.sorted()
    }

    /// Every test that starts a program, binds a port or mounts is tagged so, and left out of a fast run.
    @Test func testsThatNeedMoreThanTheirProcessAreTagged() throws {
        let planted = ["Planted.swift": "@Suite struct P { @Test func t() throws { _ = try ShellBinary.run([\"-c\", \"ls\"]) } }"]
        #expect(Self.untagged(planted) == ["Planted.swift"])
        #expect(Self.untagged(["Tagged.swift": "@Suite(.tags(.process), .notInFastRun) " + planted["Planted.swift"]!]).isEmpty)

        let base = LayerCheckTests.root.appendingPathComponent("Tests")
        var files: [String: String] = [:]
        let walker = FileManager.default.enumerator(atPath: base.path)
        while let relative = walker?.nextObject() as? String {
            guard relative.hasSuffix(".swift"), !relative.hasPrefix("TestSupport/"), !relative.contains("/Support/"),
                !relative.hasSuffix("TestHarnessRulesTests.swift")
            else { continue }
            let text = try String(contentsOfFile: base.appendingPathComponent(relative).path, encoding: .utf8)
            if text.contains("@Test") { files[relative] = text }
        }
        #expect(files.count > 100)
        #expect(Self.untagged(files).isEmpty, "tag these (.tags(.process|.port|.fuse), .notInFastRun): \(Self.untagged(files))")
    }
}

/// The scripts that run `serve` read its log in one place, scripts/serve-log (which InteropTests'
/// ServeLogScriptTests runs against a real serve): none greps serve's lines itself.
@Suite struct ScriptRulesTests {
    @Test func serveLogIsReadOnlyThroughServeLog() throws {
        let scripts = LayerCheckTests.root.appendingPathComponent("scripts")
        var offenders: [String] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: scripts.path).sorted() where name != "serve-log" {
            var isFolder: ObjCBool = false
            let path = scripts.appendingPathComponent(name).path
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue else { continue }
            let text = try String(contentsOfFile: path, encoding: .utf8)
            guard text.contains(" serve --listen") else { continue }
            let readsItself = ["bytes) sent", " requests\"", "'ptpip:127.0.0.1:[0-9]*'", "grep -c 'serve: session"].filter(text.contains)
            if !text.contains("source scripts/serve-log") || !readsItself.isEmpty { offenders.append("\(name) \(readsItself)") }
        }
        #expect(offenders.isEmpty, "read serve's log through scripts/serve-log: \(offenders)")
    }
}
