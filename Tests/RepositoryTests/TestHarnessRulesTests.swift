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
