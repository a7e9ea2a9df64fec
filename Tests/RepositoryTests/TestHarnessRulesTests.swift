import Foundation
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
