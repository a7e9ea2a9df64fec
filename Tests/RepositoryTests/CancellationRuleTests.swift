import Foundation
import TestSupport
import Testing

/// Work is stopped one way in Sources: POSIX's `Cancellation`, which every layer takes (a flag `cancel()`
/// sets, or a condition such as Ctrl-C's). No other type does that job, no parameter or property is a
/// `() -> Bool` named for stopping, and the session's task-local is of that type.
@Suite struct CancellationRuleTests {
    /// Each kind of second way to stop, as a pattern, with what to write instead.
    static let rules: [(pattern: String, instead: String)] = [
        (#"(class|struct|enum|protocol|actor)\s+\w*(Cancellation|CancelFlag|StopFlag|StopToken)\w*"#,
            "a type of its own for stopping: take POSIX's Cancellation"),
        (#"\b(cancelled|canceled|stopped|isCancelled|shouldStop|stop|cancel)\s*:\s*(@escaping\s+)?(@Sendable\s+)?\(\)\s*(throws\s+)?->\s*Bool"#,
            "a closure that says stop: take a Cancellation"),
        (#"@TaskLocal\s+static\s+var\s+\w*[Cc]ancel\w*\s*:\s*\("#, "a task-local closure that says stop: make it a Cancellation?"),
    ]

    /// Where the files (path: text) say stop another way: "path: the line (what to do instead)".
    static func otherWaysToStop(_ files: [String: String]) -> [String] {
        var found: [String] = []
        for (path, text) in files.sorted(by: { $0.key < $1.key }) where path != "POSIX/Cancellation.swift" {
            for rule in rules {
                let regex = try! Regex(rule.pattern)
                for match in text.matches(of: regex) {
                    let start = text[..<match.range.lowerBound].lastIndex(of: "\n").map { text.index(after: $0) } ?? text.startIndex
                    let line = String(text[start..<match.range.upperBound]).trimmingCharacters(in: .whitespaces)
                    found.append("\(path): \(line) (\(rule.instead))")
                }
            }
        }
        return found
    }

    @Test func thereIsOneWayToStop() throws {
        let planted = [
            "MediaManager/Planted.swift": """
                public final class CancellationFlag: Sendable {}
                func fetch(cancelled: @escaping @Sendable () -> Bool) {}
                @TaskLocal static var callerCancellation: (@Sendable () -> Bool)? = nil
                """
        ]
        #expect(Self.otherWaysToStop(planted).count == 3, "\(Self.otherWaysToStop(planted))")
        #expect(Self.otherWaysToStop(["Fine.swift": "func fetch(cancellation: Cancellation = .never) {}"]).isEmpty)

        let sources = LayerCheckTests.root.appendingPathComponent("Sources")
        var files: [String: String] = [:]
        let walker = FileManager.default.enumerator(atPath: sources.path)
        while let relative = walker?.nextObject() as? String {
            guard relative.hasSuffix(".swift") else { continue }
            files[relative] = try String(contentsOfFile: sources.appendingPathComponent(relative).path, encoding: .utf8)
        }
        #expect(files["POSIX/Cancellation.swift"]?.contains("public final class Cancellation") == true)
        #expect(Self.otherWaysToStop(files).isEmpty, "\(Self.otherWaysToStop(files).joined(separator: "\n"))")
    }
}
