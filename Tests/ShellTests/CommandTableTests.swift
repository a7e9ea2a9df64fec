import CommandKit
import Foundation
import Testing

@testable import Shell
@testable import TerminalKit

@Suite struct CommandTableTests {
    let table = CommandTable.standard

    private func parse(_ line: String) throws -> Invocation {
        let statements = try Tokenizer.statements(in: line)
        #expect(statements.count == 1)
        return try table.invocation(for: statements[0])
    }

    private func usageError(_ line: String) -> UsageError? {
        do {
            _ = try parse(line)
            return nil
        } catch let error as UsageError {
            return error
        } catch {
            Issue.record("unexpected error \(error)")
            return nil
        }
    }

    @Test func everyBriefCommandIsThereWithItsAliases() {
        let names = [
            "help", "quit", "exit", "open", "close", "devices", "summary", "set", "history", "source", "lcd",
            "lpwd", "storages", "ls", "cd", "pwd", "refresh", "state", "select", "info", "offset", "thumb", "fetch",
            "get", "edit", "done", "delete", "rm", "play", "pause", "resume", "stop", "seek", "step", "status",
            "mode", "capture", "shoot", "?", "dir",
        ]
        for name in names { #expect(table.command(named: name) != nil, "\(name)") }
        #expect(table.command(named: "get")?.id == "fetch")
        #expect(table.command(named: "rm")?.id == "delete")
        #expect(table.command(named: "shoot")?.id == "capture")
        #expect(table.command(named: "exit")?.id == "quit")
        #expect(Set(table.commands.map(\.id)).count == table.commands.count, "one spec per command")
        for spec in table.commands { #expect(table.implementation(of: spec.id)?.spec == spec, "\(spec.name) runs") }
    }

    @Test func synopsesFollowTheBrief() {
        #expect(table.command("ls").synopsis == "ls [-l] [-1] [-h] [-a] [-t] [-S] [-r] [--thumbs] [--json] [-R] [-d] [-n] [--since DATE] [--until DATE] [--kind KIND] [--larger SIZE] [--new] [GLOB...]", "the brief's, issue 7's --thumbs and issue 42's -n")
        #expect(table.command("fetch").synopsis == "fetch [-c] [-r] [-o DIR] [--new] [--force] [--delete-after] [NAME|GLOB...]")
        #expect(table.command("delete").synopsis == "delete [--force] NAME|GLOB...")
        #expect(table.command("set").synopsis == "set [--save] [NAME [VALUE]]")
        #expect(table.command("seek").synopsis == "seek [--key] [--frame] POS", "the brief's seek [--key|--frame] POS")
        #expect(table.command("mode").synopsis == "mode [download|shoot]")
    }

    @Test func combinedAndSeparateOptions() throws {
        let ls = try parse("ls -lt -r --json '*.JPG'")
        #expect(ls.id == "ls")
        #expect(ls.flags == [.long, .byTime, .reverse, .json])
        #expect(ls.arguments.map(\.text) == ["*.JPG"])
        #expect(!ls.arguments[0].isGlob)
    }

    @Test func optionValuesInEveryForm() throws {
        for line in ["get -o /tmp/out a.jpg", "get -o/tmp/out a.jpg", "get --output /tmp/out a.jpg", "get --output=/tmp/out a.jpg", "get a.jpg -co /tmp/out"] {
            let fetch = try parse(line)
            #expect(fetch.id == "fetch")
            #expect(fetch.name.text == "get")
            #expect(fetch.value(of: .output)?.text == "/tmp/out", "\(line)")
            #expect(fetch.arguments.map(\.text) == ["a.jpg"], "\(line)")
        }
        #expect(try parse("get a.jpg -co /tmp/out").has(.continue))
    }

    @Test func doubleDashEndsOptions() throws {
        let rm = try parse("rm --force -- -weird.jpg --json")
        #expect(rm.has(.force))
        #expect(rm.arguments.map(\.text) == ["-weird.jpg", "--json"])
    }

    @Test func negativeNumbersAreArguments() throws {
        #expect(try parse("seek -10").arguments.map(\.text) == ["-10"])
        #expect(try parse("step -3").arguments.map(\.text) == ["-3"])
        #expect(try parse("seek -1:30").arguments.map(\.text) == ["-1:30"])
    }

    @Test func ignoredFailureTravelsToTheInvocation() throws {
        #expect(try parse("-rm --force x").ignoresFailure)
        #expect(try !parse("rm --force x").ignoresFailure)
    }

    @Test func clearErrors() {
        #expect(usageError("fetch -x")?.description == "fetch: unknown option -x")
        #expect(usageError("get -cx a")?.description == "get: unknown option -x")
        #expect(usageError("ls --jsn")?.description == "ls: unknown option --jsn")
        #expect(usageError("seek")?.description == "seek: missing POS")
        #expect(usageError("delete")?.description == "delete: missing NAME|GLOB")
        #expect(usageError("fetch -o")?.description == "fetch: option -o needs DIR")
        #expect(usageError("fetch --output")?.description == "fetch: option --output needs DIR")
        #expect(usageError("ls --json=yes")?.description == "ls: option --json takes no value")
        #expect(usageError("pwd now")?.description == "pwd: unexpected argument 'now'")
        #expect(usageError("pwd now")?.column == 5)
        #expect(usageError("seek soon")?.description.hasPrefix("seek: POS must be seconds") == true)
        #expect(usageError("step two")?.description == "step: N must be a whole number, not 'two'")
        #expect(usageError("offset -5")?.description == "offset: BYTES must be a number of bytes, not '-5'")
        #expect(usageError("mode fly")?.description == "mode: download|shoot must be download or shoot, not 'fly'")
        #expect(usageError("help nope")?.description == "help: unknown command 'nope'")
        #expect(usageError("select ''")?.description == "select: NAME must not be empty")
    }

    @Test func unknownCommandsSuggestANeighbour() {
        let error = usageError("fecth a")
        #expect(error?.command == nil)
        #expect(error?.column == 1)
        #expect(error?.description == "unknown command 'fecth'; did you mean 'fetch'? (try 'help')")
        #expect(usageError("zzzzzzzz")?.description == "unknown command 'zzzzzzzz' (try 'help')")
    }

    @Test func errorsShowControlCharactersSafely() {
        #expect(usageError("pwd '\u{1B}[2J'")?.description == "pwd: unexpected argument '\\x1b[2J'")
    }

    @Test func wholeLinesParseEveryCommand() throws {
        let invocations = try table.invocations(for: "lcd /tmp; -get -c DJI*; seek 50%; mode shoot # done")
        #expect(invocations.map(\.id) == ["lcd", "fetch", "seek", "mode"])
        #expect(invocations[1].ignoresFailure)
        #expect(invocations[1].arguments[0].isGlob)
    }

    @Test func helpListsEveryCommandAligned() {
        let help = table.helpOverview()
        for command in table.commands { #expect(help.contains(command.synopsis) || help.contains(command.shortSynopsis), "\(command.name)") }
        let lines = help.split(separator: "\n")
        #expect(lines.contains("catalog:"))
        // The summaries start in one column within each area.
        let fetch = lines.first { $0.hasPrefix("  fetch ") }!
        let thumb = lines.first { $0.hasPrefix("  thumb ") }!
        #expect(fetch.range(of: "download files")!.lowerBound.utf16Offset(in: fetch)
            == thumb.range(of: "show thumbnails")!.lowerBound.utf16Offset(in: thumb))
        #expect(lines.allSatisfy { !$0.hasSuffix(" ") })
    }

    @Test func helpForOneCommand() throws {
        let help = try table.help(forName: "get")
        #expect(help.hasPrefix("usage: fetch [-c] [-r] [-o DIR]"))
        #expect(help.contains("aliases: get"))
        #expect(help.contains("  -o, --output DIR  download into DIR"))
        #expect(help.contains("  -c, --continue    resume a partial download"))
        #expect(help.split(separator: "\n").allSatisfy { $0.count <= 80 })
        #expect(throws: UsageError.self) { try table.help(forName: "nope") }
    }
}
