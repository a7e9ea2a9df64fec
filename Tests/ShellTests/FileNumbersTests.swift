import CommandKit
import Foundation
import MediaManager
import TestSupport
import Testing

@testable import Shell
@testable import TerminalKit

/// `ls -n` numbers its rows, and file arguments take `#3`, `#1-5`, `#1,3,5-7` from the last numbered
/// listing, checked and completed like names (issue 42: gphoto2's shell takes `get 1-5`).
@Suite struct FileNumbersTests {
    let card: TemporaryFolder
    let downloads: TemporaryFolder
    let interpreter: Interpreter
    let output: CapturedOutput
    let engine = CompletionEngine()
    /// `ls -n` of DCIM/100MEDIA, in its order.
    static let rows = [
        "Birthday Party.MP4", "DJI_0001.JPG", "DJI_0002.JPG", "DJI_0003.MP4", "DJI_0003.SRT", "My Clip 1.MP4", "My Clip 2.MP4",
    ]

    init() throws {
        card = try makeCardFolder(bigFileSize: 40_000)
        downloads = try TemporaryFolder("msh-numbers-dl")
        var settings = Settings()
        settings.downloadFolder = downloads.path
        (interpreter, output, _) = makeInterpreter(settings: settings)
        try interpreter.open(.folder(path: card.path))
        #expect(interpreter.run(line: "cd DCIM/100MEDIA") == .success)
    }

    private func run(_ line: String) -> LineStatus {
        output.reset()
        return interpreter.run(line: line)
    }

    /// The file the last `info` described.
    private var infoName: String? {
        output.lines.first { $0.hasPrefix("name:") }.map { $0.dropFirst(5).trimmingCharacters(in: .whitespaces) }
    }

    private func texts(_ line: String) throws -> [[String]] {
        try Tokenizer.statements(in: line).map { $0.words.map(\.text) }
    }

    @Test func hashAndADigitAfterACommandIsAWordElseAComment() throws {
        #expect(try texts("info #3") == [["info", "#3"]])
        #expect(try texts("fetch #1-5 #7;ls #1,3,5-7") == [["fetch", "#1-5", "#7"], ["ls", "#1,3,5-7"]])
        #expect(try texts("ls # list it; pwd") == [["ls"]])
        #expect(try texts("ls #") == [["ls"]])
        #expect(try texts("ls #x1") == [["ls"]])
        #expect(try texts("#3 is a comment at the start of a line") == [])
        #expect(try texts("# only a comment") == [])
        #expect(try texts("fetch a#1") == [["fetch", "a#1"]])
        let quoted = try Tokenizer.words(in: "fetch '#3' \\#4 #5")
        #expect(quoted.map(\.text) == ["fetch", "#3", "#4", "#5"])
        #expect(quoted.map { FileNumbers.isWritten($0) } == [false, false, false, true])
        #expect(quoted[3].column == 16)
    }

    @Test func fileNumbersParse() throws {
        func ranges(_ text: String) throws -> [ClosedRange<Int>]? { try FileNumbers(Word(text))?.ranges }
        #expect(try ranges("#3") == [3...3])
        #expect(try ranges("#1-5") == [1...5])
        #expect(try ranges("#1,3,5-7") == [1...1, 3...3, 5...7])
        #expect(try FileNumbers(Word("#3,1-2,3"))?.numbers == [3, 1, 2])
        #expect(try ranges("DJI_0001.JPG") == nil)
        #expect(try FileNumbers(Word("#3", isQuoted: true)) == nil)
        for malformed in ["#0", "#5-2", "#1-", "#1,,2", "#3x", "#1-2-3", "#12345678901"] {
            #expect(throws: FileNumbers.Malformed.self, "\(malformed)") { try FileNumbers(Word(malformed)) }
        }
    }

    @Test func lsNumbersItsRowsAndFileArgumentsTakeThem() throws {
        #expect(run("ls -n") == .success)
        #expect(output.lines == Self.rows.enumerated().map { "\($0 + 1) \($1)" })
        #expect(run("info #2") == .success, "\(output.errors)")
        #expect(infoName == "DJI_0001.JPG")
        #expect(run("fetch #2-3") == .success, "\(output.errors)")
        #expect(downloads.exists("DJI_0001.JPG") && downloads.exists("DJI_0002.JPG") && !downloads.exists("DJI_0003.MP4"))
        #expect(run("ls -1 #1,3,5-7") == .success, "\(output.errors)")
        #expect(output.lines == ["Birthday Party.MP4", "DJI_0002.JPG", "DJI_0003.SRT", "My Clip 1.MP4", "My Clip 2.MP4"])
        // That listing was not numbered: #N still names the rows of `ls -n`.
        #expect(run("info #6") == .success)
        #expect(infoName == "My Clip 1.MP4")
    }

    @Test func numbersRunAcrossBlocksAndHoldFromAnyFolder() throws {
        #expect(run("cd ..; ls -ln *") == .success, "\(output.errors)")
        let numbered = output.lines.filter { !$0.isEmpty && !$0.hasSuffix(":") }
        #expect(numbered.count == 9)
        #expect(numbered.first?.hasPrefix("1  ") == true && numbered.first?.hasSuffix("Birthday Party.MP4") == true)
        #expect(numbered.last?.hasPrefix("9  ") == true && numbered.last?.hasSuffix("IMG_0101.JPG") == true)
        #expect(run("cd /; info #8") == .success, "\(output.errors)")
        #expect(infoName == "IMG_0100.JPG" && output.lines.contains { $0.hasPrefix("folder:") && $0.hasSuffix(" /DCIM/101MEDIA") })
        let json = try #require(run("ls -n --json /DCIM/101MEDIA") == .success ? output.standardOutput : nil)
        let objects = try #require(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        #expect(objects.map { $0["number"] as? Int } == [1, 2] && objects.map { $0["name"] as? String } == ["IMG_0100.JPG", "IMG_0101.JPG"])
        #expect(run("info #1") == .success && infoName == "IMG_0100.JPG")
    }

    @Test func aNumberPastTheListingOrBeforeAnyIsAClearError() throws {
        #expect(run("info #3") == .failure)
        #expect(output.errors.last?.contains("info: #3: nothing is numbered yet ('ls -n' numbers the rows it lists") == true, "\(output.errors)")
        #expect(run("ls -n") == .success)
        #expect(run("fetch #6-9") == .failure)
        #expect(output.errors.last?.hasSuffix("fetch: #6-9: the last numbered listing has 7 rows, #1-7") == true, "\(output.errors)")
        #expect(run("info #0") == .failure)
        #expect(output.errors.last?.contains("'#0' is no file number: write #N, #N-M") == true, "\(output.errors)")
        #expect(run("info #1-3") == .failure)
        #expect(output.errors.last?.hasSuffix("'#1-3' matches 3 files; info takes one") == true, "\(output.errors)")
        #expect(run("info '#3'") == .failure)
        #expect(output.errors.last?.hasSuffix("no such file or folder: #3") == true, "\(output.errors)")
        #expect(downloads.read("DJI_0003.MP4") == nil)

        // A row the card no longer has.
        try FileManager.default.removeItem(atPath: card.path("DCIM/100MEDIA/DJI_0002.JPG"))
        #expect(run("refresh") == .success)
        #expect(run("info #3") == .failure)
        #expect(output.errors.last?.hasSuffix("#3 (DJI_0002.JPG) is no longer on the camera") == true, "\(output.errors)")
        // Closing the camera forgets the numbers.
        #expect(run("close") == .success)
        #expect(run("open dir:\(card.path); info #1") == .failure)
        #expect(output.errors.last?.contains("nothing is numbered yet") == true, "\(output.errors)")
    }

    @Test func commentsStayComments() throws {
        #expect(interpreter.runScript("# a script's first line\nls -1 # every file\n#1 is no command\necho #1 done # said\n") == .finished(failed: false))
        #expect(output.lines.suffix(1) == ["#1 done"])
        #expect(output.errors.isEmpty, "\(output.errors)")
    }

    @Test func setNumbersOnNumbersEveryListing() throws {
        #expect(run("set numbers on; ls DJI_000*") == .success, "\(output.errors)")
        #expect(output.lines == ["1 DJI_0001.JPG", "2 DJI_0002.JPG", "3 DJI_0003.MP4", "4 DJI_0003.SRT"])
        #expect(run("info #4") == .success && infoName == "DJI_0003.SRT")
        #expect(run("set numbers off; ls -1 DJI_000*.JPG") == .success)
        #expect(output.lines == ["DJI_0001.JPG", "DJI_0002.JPG"])
        #expect(run("set numbers") == .success && output.lines == ["numbers off"])
    }

    @Test func tabCompletesANumberToItsName() throws {
        for index in 1...12 { try card.write("DCIM/102MEDIA/" + String(format: "A%02d.JPG", index), [0xFF, 0xD8]) }
        #expect(run("refresh; cd ../102MEDIA; ls -n") == .success, "\(output.errors)")
        #expect(engine.complete(marked: "info #12|", in: interpreter.completion).line == "info A12.JPG |")
        let several = engine.complete(marked: "fetch #1|", in: interpreter.completion)
        #expect(several.line == "fetch #1|")
        #expect(several.candidates == ["#1 A01.JPG", "#10 A10.JPG", "#11 A11.JPG", "#12 A12.JPG"])
        #expect(engine.complete(marked: "info #13|", in: interpreter.completion).candidates.isEmpty)
        #expect(engine.complete(marked: "fetch #1-|", in: interpreter.completion).candidates.isEmpty)
        // From another folder, the path from the top; a name with spaces, escaped.
        #expect(run("cd ../100MEDIA; ls -n My*; cd /") == .success)
        #expect(engine.complete(marked: "info #2|", in: interpreter.completion).line == "info /DCIM/100MEDIA/My\\ Clip\\ 2.MP4 |")
    }

    @Test func helpSaysHowHashIsRead() {
        #expect(run("help") == .success)
        let text = output.standardOutput.replacingOccurrences(of: "\n", with: " ")
        #expect(text.contains("'#' starts a comment, but '#' and a digit after a command name are file numbers"))
        #expect(run("help ls") == .success && output.standardOutput.contains("-n"))
    }
}
