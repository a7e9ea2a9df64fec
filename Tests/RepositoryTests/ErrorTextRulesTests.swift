import Foundation
import Testing

/// Below the shell, errors are data: tests outside ShellTests switch on an error's cases and facts, never on
/// its words (which may be reworded without breaking anything but ShellTests' golden sentences).
@Suite struct ErrorTextRulesTests {
    /// The ways a test read an error's text before the errors carried their facts, one pattern each.
    static let patterns: [(name: String, regex: String)] = [
        ("an error's description or message", #"\b(error|failure|cause|why|problem|thrown|err)\??\.(description|localizedDescription|message)\b"#),
        ("localizedDescription", #"\blocalizedDescription\b"#),
        ("the text of an error compared", #""\\\((error|failure|cause|thrown|err|\$0)\)"\s*(\.contains|\.hasPrefix|\.hasSuffix|==)"#),
        ("the text of an error kept", #"=\s*"\\\((error|failure|cause|thrown|err)\)"\s*$"#),
        ("String(describing:) of an error compared",
         #"String\((describing|reflecting): (error|failure|cause|thrown|err)\??\)\s*(\.contains|\.hasPrefix|\.hasSuffix|==)"#),
        ("a constructed error's words compared",
         #"\b[A-Z]\w*(Error|Failure)\.\w+(\(.*\))?\.(description|message)\s*(\.contains|\.hasPrefix|\.hasSuffix|==|\.isEmpty)"#),
    ]

    /// `file:line: rule` for each line of a test outside ShellTests (under `root`'s Tests) that reads error text.
    static func offenders(under root: URL) throws -> [String] {
        let regexes = try patterns.map { ($0.name, try NSRegularExpression(pattern: $0.regex, options: [.anchorsMatchLines])) }
        let tests = root.appendingPathComponent("Tests")
        var found: [String] = []
        let walker = FileManager.default.enumerator(atPath: tests.path)
        while let relative = walker?.nextObject() as? String {
            // ShellTests and WordsTests (the module that words them) read the sentences a user sees.
            guard relative.hasSuffix(".swift"), !relative.hasPrefix("ShellTests/"), !relative.hasPrefix("WordsTests/"),
                !relative.hasSuffix("ErrorTextRulesTests.swift")
            else { continue }
            let text = try String(contentsOfFile: tests.appendingPathComponent(relative).path, encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let line = String(line)
                let range = NSRange(line.startIndex..., in: line)
                for (name, regex) in regexes where regex.firstMatch(in: line, range: range) != nil {
                    found.append("Tests/\(relative):\(number + 1): \(name)")
                }
            }
        }
        return found.sorted()
    }

    @Test func noTestOutsideShellTestsReadsErrorText() throws {
        let offenders = try Self.offenders(under: LayerCheckTests.root)
        #expect(offenders.isEmpty, "switch on the error's case and facts instead: \(offenders)")
    }

    /// Each pattern, planted in a test below the shell, is found; the same lines in ShellTests are allowed.
    @Test func aPlantedReadingOfErrorTextIsFound() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("error-text-rule-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        defer { try? FileManager.default.removeItem(at: root) }
        let planted = [
            #"    #expect(error.description.contains("unknown type"))"#,
            #"    let words = failure.localizedDescription"#,
            #"    "\(error)".contains("of 10 elements")"#,
            #"    #expect { try decoder.finish() } throws: { "\($0)".contains("cannot fit") }"#,
            #"    let text = "\(error)""#,
            #"    #expect(String(describing: error).contains("truncated"))"#,
            #"    #expect(USBCameraError.notFound(.first, available: []).description.contains("no PTP/MTP camera"))"#,
        ]
        for folder in ["PTPTests", "ShellTests"] {
            let directory = root.appendingPathComponent("Tests/\(folder)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try (["func planted() {"] + planted + ["}"]).joined(separator: "\n")
                .write(to: directory.appendingPathComponent("Planted.swift"), atomically: true, encoding: .utf8)
        }
        let found = try Self.offenders(under: root)
        let lines = Set(found.map { $0.split(separator: ":").prefix(2).joined(separator: ":") })
        #expect(lines.count == planted.count, "each planted line is found: \(found)")
        #expect(found.allSatisfy { $0.hasPrefix("Tests/PTPTests/Planted.swift:") }, "ShellTests may read words: \(found)")
        for (index, pattern) in Self.patterns.enumerated() {
            #expect(found.contains { $0.hasSuffix(": " + pattern.name) }, "pattern \(index) (\(pattern.name)) found nothing")
        }
    }
}
