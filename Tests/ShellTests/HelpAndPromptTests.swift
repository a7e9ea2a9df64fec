import CommandKit
import Foundation
import MediaManager
import Testing
import TestSupport
import Words

@testable import Shell
@testable import TerminalKit

/// Help that fits the terminal (every line of every command's help at 80 and 40 columns, at word
/// boundaries), `help set` a setting per line, examples; the prompt: short by default, the selection only
/// while it is worked on, `select --clear`, the `prompt` setting's tokens, a non-default port kept.
@Suite(.tags(.process, .port), .notInFastRun) struct HelpAndPromptTests {
    let table = CommandTable.standard

    @Test(arguments: [80, 40])
    func everyHelpLineFitsTheWidth(width: Int) throws {
        var texts = [table.helpOverview(width: width)]
        for command in table.commands { texts.append(table.help(for: command, width: width)) }
        for text in texts {
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                #expect(TerminalWidth.of(String(line)) <= width, "wider than \(width): \(line)")
                #expect(!line.hasSuffix(" "), "trailing space: \(line)")
            }
        }
        // Wrapped at spaces: every word of a command's summary is whole somewhere in the overview.
        let overviewWords = Set(table.helpOverview(width: width).split(whereSeparator: { $0 == " " || $0 == "\n" }))
        for command in table.commands {
            for word in command.summary.split(separator: " ") { #expect(overviewWords.contains(word), "\(word) was cut") }
        }
    }

    @Test func helpSetListsOneSettingPerLineWithItsValues() throws {
        let lines = try table.help(forName: "set", width: 80).split(separator: "\n").map(String.init)
        for name in Settings.names {
            #expect(lines.contains { $0.hasPrefix("  \(name) ") }, "no line for \(name)")
        }
        #expect(lines.contains { $0.hasPrefix("  errexit on|off ") })
        #expect(lines.contains { $0.hasPrefix("  limit-rate BYTES|off ") })
        #expect(lines.contains("examples:"))
    }

    @Test func commonCommandsHaveExamples() {
        for name in ["ls", "fetch", "set", "select", "help"] {
            #expect(!(table.command(named: name)?.examples.isEmpty ?? true), "\(name) has no examples")
        }
    }

    @Test func theBinaryWrapsHelpToColumns() throws {
        guard ShellBinary.exists else { return }
        for width in [80, 40] {
            let result = try ShellBinary.run(
                ["--camera", "sim:", "-c", "help; help set; help fetch; help ls"], environment: ["COLUMNS": "\(width)"])
            #expect(result.status == 0)
            let wide = result.outputLines.filter { TerminalWidth.of($0) > width }
            #expect(wide.isEmpty, "\(wide)")
            #expect(result.outputLines.contains { $0.hasPrefix("  download-dir DIR") })
        }
    }

    @Test func thePromptIsShortAndShowsTheSelectionWhileItIsWorkedOn() throws {
        let card = try makeCardFolder()
        let downloads = try TemporaryFolder("msh-prompt-dl")
        var settings = Settings()
        settings.downloadFolder = downloads.path
        let (interpreter, output, _) = makeInterpreter(settings: settings)
        try interpreter.open(.folder(path: card.path))
        #expect(interpreter.prompt == "dir:/> ")
        #expect(interpreter.run(line: "cd DCIM/100MEDIA; select DJI_0001.JPG") == .success)
        #expect(interpreter.prompt == "dir:/DCIM/100MEDIA [DJI_0001.JPG]> ")
        #expect(interpreter.run(line: "fetch") == .success, "\(output.errors)")
        #expect(interpreter.prompt == "dir:/DCIM/100MEDIA> ", "a fetched file leaves the prompt")
        #expect(interpreter.state.selection?.file.name == "DJI_0001.JPG", "but stays selected")
        #expect(interpreter.run(line: "select DJI_0002.JPG; select --clear") == .success)
        #expect(interpreter.state.selection == nil)
        #expect(interpreter.prompt == "dir:/DCIM/100MEDIA> ")
        #expect(interpreter.run(line: "select --clear DJI_0002.JPG") == .failure)

        #expect(interpreter.run(line: "set prompt '%n %c%W%s%e %% '; select DJI_0002.JPG; edit") == .success)
        #expect(interpreter.prompt == "mediashell dir:/DCIM/100MEDIA [DJI_0002.JPG] (edit) % ")
        #expect(RemotePath.shortDisplay("DCIM/100MEDIA/CLIPS/2024") == "…/CLIPS/2024")
        #expect(URLText.tag(.ptpip(host: "10.0.0.2", port: 15740, eventPort: 15740)) == "ptpip:10.0.0.2:")
        #expect(URLText.tag(.ptpip(host: "127.0.0.1", port: 5555, eventPort: 5555)) == "ptpip:127.0.0.1:5555:")
    }
}
