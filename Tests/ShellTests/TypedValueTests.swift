import CommandKit
import Testing

@testable import Shell
@testable import TerminalKit

/// Values are decoded once, by the framework, from the kinds a command declares; a bad value is one clear line
/// and the command never sees it; `&` is allowed by a command's own spec.
@Suite struct TypedValueTests {
    private func parse(_ line: String, table: CommandTable = .standard) throws -> Invocation {
        try table.invocation(for: try Tokenizer.statements(in: line)[0])
    }

    @Test func theParserHandsCommandsDecodedValues() throws {
        #expect(try parse("offset 123").byteCount(at: 0) == 123)
        #expect(try parse("step -3").integer(at: 0) == -3)
        #expect(try parse("seek 1:02.5").seekPosition(at: 0) == .absolute(seconds: 62.5))
        #expect(try parse("seek +10").seekPosition(at: 0) == .relative(seconds: 10))
        #expect(try parse("seek 50%").seekPosition(at: 0) == .percent(50))
        #expect(try parse("step").integer(at: 0) == nil, "an optional argument not given")
        #expect(try parse("fetch -o DIR a").decodedValues[.output] == .word("DIR"))
    }

    @Test func badValuesAreOneClearLineAtThePrompt() {
        let (interpreter, output, _) = makeInterpreter()
        for (line, expected) in [
            ("offset abc", "error: offset: BYTES must be a number of bytes, not 'abc'"),
            ("seek 1:2:3:4", "error: seek: POS must be seconds (12.5), m:ss (1:02.5), +N, -N or N%, not '1:2:3:4'"),
            ("seek x", "error: seek: POS must be seconds (12.5), m:ss (1:02.5), +N, -N or N%, not 'x'"),
            ("ls -Z", "error: ls: unknown option -Z"),
            ("step 1.5", "error: step: N must be a whole number, not '1.5'"),
        ] {
            let before = output.errors.count
            #expect(interpreter.run(line: line) == .failure, "\(line)")
            #expect(Array(output.errors.dropFirst(before)) == [expected], "\(line)")
        }
    }

    @Test func whetherACommandRunsInTheBackgroundIsItsSpecs() throws {
        let background = CommandTable.standard.commands.filter(\.runsInBackground).map(\.name)
        #expect(background == ["fetch", "mirror", "import"])
        #expect(try parse("fetch a &").runsInBackground)
        #expect(throws: UsageError.self) { try parse("ls &") }
        let table = CommandTable(CommandTable.standardCommands + [Slow()])
        #expect(try parse("slow &", table: table).runsInBackground, "a command new to the table says so itself")
        let error = #expect(throws: UsageError.self) { try parse("ls &", table: table) }
        #expect(error?.description == "ls: only fetch, mirror, import and slow run as jobs ('&')")
    }

    private struct Slow: ShellCommand {
        let spec = CommandSpec("slow", area: .transfer, summary: "take a while", runsInBackground: true)
        func run(_ invocation: Invocation, in shell: Interpreter) throws -> CommandOutcome { .success }
    }
}
