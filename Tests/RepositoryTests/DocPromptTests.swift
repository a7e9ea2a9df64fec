import Foundation
import TestSupport
import Testing

/// Every prompt in the README's and the docs' examples is the prompt the shell shows (issue 47): the
/// examples had drifted to `mediashell>` and `mediashell dir:/>`, which no session ever printed.
@Suite(.tags(.port), .notInFastRun) struct DocPromptTests {
    /// The default prompt format, as Sources/Shell/Interpreter/Prompt.swift states it. When it changes, the
    /// pattern below and the examples change with it.
    static let standardFormat = "\"%c%w%s%p%m%e%j> \""

    /// What `%c%w%s%p%m%e%j> ` renders: the camera (`sim:`, `dir:`, `usb:`, `ptpip:HOST:`, `fuji:HOST:`, a port
    /// when not the default) and its folder, or `(no camera)`; then the selection `[NAME @ SIZE]`, the
    /// video `DJI_0005.MP4 ▶ 0:01.2/0:03` (its name left out when it is the selection), `(shoot)`, `(edit)` and
    /// `[N jobs]`, each only when there.
    static var realPrompt: Regex<AnyRegexOutput> {
        try! Regex(
            #"^(\(no camera\)|(sim:|dir:|usb:|(ptpip|fuji):[^\s:/]+:([0-9]+:)?)(/\S*|…/\S*))"#
                + #"( \[[^\]]+\])?( (\S{1,20} )?(▶\||▶|‖|■) [0-9:.]+/[0-9:.]+)?( \(shoot\))?( \(edit\))?( \[[0-9]+ jobs?\])?> "#)
    }

    /// A line that is meant as a prompt: its first word ends in `>` (`mediashell>`, `dir:/>`), or it is a
    /// camera tag followed by more before a `> ` (`dir:/ [X]> `), or `(no camera)>`; `mediashell ` before any.
    static var lookslikeAPrompt: Regex<AnyRegexOutput> {
        try! Regex(#"^(mediashell )?(\S+> |\(no camera\)|(sim|dir|usb|ptpip|fuji):\S*( [^>]*)?> )"#)
    }

    @Test func theStandardPromptIsTheOneThePatternDescribes() throws {
        let source = try String(
            contentsOf: LayerCheckTests.root.appendingPathComponent("Sources/Shell/Interpreter/Prompt.swift"), encoding: .utf8)
        #expect(source.contains("static let standard = " + Self.standardFormat))
    }

    @Test func everyExamplePromptIsTheRealOne() throws {
        var checked = 0
        var wrong: [String] = []
        for file in try Self.documents() {
            for (number, line) in try Self.codeLines(of: file) {
                let text = line.drop { $0 == " " }
                guard text.prefixMatch(of: Self.lookslikeAPrompt) != nil else { continue }
                checked += 1
                if text.prefixMatch(of: Self.realPrompt) == nil { wrong.append("\(file.lastPathComponent):\(number): \(text)") }
            }
        }
        #expect(wrong.isEmpty, "not the shell's prompt:\n\(wrong.joined(separator: "\n"))")
        #expect(checked >= 10, "the examples' prompts were not found (\(checked))")
    }

    /// The pattern knows a wrong prompt from a right one (planted lines).
    @Test(arguments: [
        ("mediashell> ls", false), ("mediashell sim:/ [A.MP4] ‖ 0:00.8/0:03> seek 2", false), ("mediashell dir:/> import", false), ("dir:/> import", true),
        ("sim:/DCIM/100MEDIA [DJI_0003.MP4 @ 1.2 MB] (edit)> fetch", true), ("(no camera)> open sim:", true),
        ("ptpip:192.168.1.1:/DCIM> ls", true), ("ptpip:127.0.0.1:15741:/> ls", true), ("camera> ls", false),
        ("sim:/DCIM/100MEDIA [DJI_0005.MP4] ‖ 0:01.2/0:03> seek 2", true),
        ("sim:/DCIM/100MEDIA DJI_0005.MP4 ▶ 0:01.2/0:03> pause", true), ("sim:/ ▷ 0:01.2/0:03> pause", false), ("sim:/ [2 jobs]> jobs", true),
    ])
    func thePatternTellsThemApart(line: String, real: Bool) {
        #expect(line.prefixMatch(of: Self.lookslikeAPrompt) != nil)
        #expect((line.prefixMatch(of: Self.realPrompt) != nil) == real)
    }

    /// README.md and every Markdown file under docs/.
    static func documents() throws -> [URL] {
        let root = LayerCheckTests.root
        var files = [root.appendingPathComponent("README.md")]
        let docs = root.appendingPathComponent("docs")
        let walker = FileManager.default.enumerator(atPath: docs.path)
        while let relative = walker?.nextObject() as? String {
            guard relative.hasSuffix(".md") else { continue }
            files.append(docs.appendingPathComponent(relative))
        }
        return files
    }

    /// The lines of `file`'s code blocks (fenced, or indented by four spaces after a blank line), numbered.
    static func codeLines(of file: URL) throws -> [(Int, Substring)] {
        let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        var result: [(Int, Substring)] = []
        var fenced = false
        var indented = false
        var previousBlank = true
        for (index, line) in lines.enumerated() {
            let trimmed = line.drop { $0 == " " }
            if trimmed.hasPrefix("```") {
                fenced.toggle()
            } else if fenced {
                result.append((index + 1, line))
            } else {
                if line.hasPrefix("    ") && (previousBlank || indented) && !trimmed.hasPrefix("- ") { indented = true }
                else if !line.isEmpty { indented = false }
                if indented { result.append((index + 1, line)) }
            }
            previousBlank = line.isEmpty
        }
        return result
    }
}
