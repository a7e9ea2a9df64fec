import Foundation
import MediaManager
import TestSupport
import Testing

@testable import Shell

/// The habits a new user brings (issue 27, item 10): `kill 1` as lftp takes it, days counted back
/// (`--since yesterday`, `today`, `-2d`), `alias --save`, `clear`, `cat`/`less` for text sidecars, and a
/// folder without DCIM said to be one.
@Suite struct SmallHabitsTests {
    let card: TemporaryFolder
    let home: TemporaryFolder
    let interpreter: Interpreter
    let output: CapturedOutput

    init() throws {
        card = try makeCardFolder()
        home = try TemporaryFolder("msh-habits")
        (interpreter, output, _) = makeInterpreter()
        interpreter.configPath = home.path + "/config"
        try interpreter.open(.folder(path: card.path))
        #expect(interpreter.run(line: "cd DCIM/100MEDIA") == .success)
    }

    @Test func daysCountedBack() throws {
        var calendar = Calendar.current
        calendar.timeZone = .current
        let now = try #require(calendar.date(from: DateComponents(year: 2026, month: 12, day: 2, hour: 7, minute: 30)))
        let day = { (text: String) throws -> DateComponents in
            calendar.dateComponents([.year, .month, .day, .hour], from: try FileFilter.date(text, option: "--since", now: now))
        }
        #expect(try day("today") == DateComponents(year: 2026, month: 12, day: 2, hour: 0))
        #expect(try day("yesterday") == DateComponents(year: 2026, month: 12, day: 1, hour: 0))
        #expect(try day("-2d") == DateComponents(year: 2026, month: 11, day: 30, hour: 0))
        #expect(throws: CommandError.self) { try FileFilter.date("-2x", option: "--since", now: now) }
    }

    @Test func aliasSaveWritesTheConfigFile() throws {
        #expect(interpreter.run(line: "alias --save grab 'fetch -o /tmp/x $@'") == .success, "\(output.errors)")
        #expect(interpreter.run(line: "alias --save grab 'fetch -o /tmp/y $@'") == .success)
        let config = try String(contentsOfFile: home.path + "/config", encoding: .utf8)
        #expect(config == "alias grab 'fetch -o /tmp/y $@'\n")
    }

    @Test func catPrintsTextSidecarsAndRefusesTheRest() {
        #expect(interpreter.run(line: "cat DJI_0003.SRT") == .success, "\(output.errors)")
        #expect(output.lines == ["1", "00:00:00,000 --> 00:00:01,000", "alt 10"])
        #expect(interpreter.run(line: "less DJI_0001.JPG") == .failure)
        #expect(output.errors.last == "error: less: DJI_0001.JPG is not text ('fetch' it, or 'info' for what it is)")
    }

    @Test func clearWritesNothingIntoAPipe() {
        #expect(interpreter.run(line: "clear") == .success)
        #expect(output.standardOutput.isEmpty)
        output.columns = 80
        #expect(interpreter.run(line: "clear") == .success)
        #expect(output.standardOutput == "\u{1B}[H\u{1B}[2J\u{1B}[3J")
    }

    @Test func killTakesAJobNumberWithoutPercent() throws {
        #expect(interpreter.run(line: "set limit-rate 1k; fetch -o \(home.path) DJI_0003.MP4 &") == .success)
        #expect(interpreter.run(line: "kill 1") == .success, "\(output.errors)")
        #expect(output.lines.last?.hasPrefix("[1] killed") == true, "\(output.lines)")
    }

    @Test func aFolderWithoutDCIMIsSaidToBeOne() throws {
        let plain = try TemporaryFolder("msh-plain")
        try plain.write("notes.txt", text: "hello\n")
        #expect(interpreter.run(line: "open dir:\(plain.path)") == .success)
        #expect(output.lines.last == "no DCIM folder in \(plain.path): its files and folders are shown as they are", "\(output.lines)")
        #expect(interpreter.run(line: "open dir:\(card.path)") == .success)
        #expect(!output.lines.last!.contains("DCIM"))
    }
}
