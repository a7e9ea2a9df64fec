import CommandKit
import Foundation
import Serve
import TerminalKit
import TestSupport
import Testing

@testable import Shell

/// `mediashell`, `mediashell serve` and `mediashell devices` are each declared once (a `CommandSpec`); the
/// parser, `--help`, the man page and the bash completion all come from that declaration, so none of them
/// can name an option the others lack.
@Suite(.enabled(if: ShellBinary.exists, "needs the built mediashell binary"), .tags(.process, .port), .notInFastRun)
struct ProgramDeclarationTests {
    let programs = [ShellArguments.spec, ServeCommand.spec, ShellArguments.devicesSpec, ShellArguments.verifySpec]

    @Test func helpManPageAndCompletionNameEveryDeclaredOption() throws {
        let shellHelp = try ShellBinary.run(["--help"])
        let serveHelp = try ShellBinary.run(["serve", "--help"])
        let verifyHelp = try ShellBinary.run(["verify", "-h"])
        #expect(shellHelp.status == 0 && serveHelp.status == 0 && verifyHelp.status == 0)
        #expect(verifyHelp.outputLines.first?.hasPrefix("usage: mediashell verify [-h] [--repair] [DIR...]") == true, "\(verifyHelp.outputLines)")
        let man = try ShellBinary.run(["--man-page"]).standardOutput.replacingOccurrences(of: "\\-", with: "-")
        let completion = try ShellBinary.run(["--bash-completion"]).standardOutput
        for (program, help) in [(ShellArguments.spec, shellHelp.standardOutput), (ServeCommand.spec, serveHelp.standardOutput)] {
            #expect(!program.options.isEmpty)
            for option in program.options {
                #expect(help.contains(option.helpTerm), "\(program.name) --help lacks \(option.helpTerm)")
                #expect(help.contains(option.summary.prefix(30)), "\(program.name) --help lacks \(option.summary)")
                #expect(man.contains(option.helpTerm), "the man page lacks \(program.name) \(option.helpTerm)")
                for spelling in option.spellings {
                    let word = try Regex("[ \"|(]\(spelling)[ \"|)]")
                    #expect(completion.contains(word), "the bash completion lacks \(program.name) \(spelling)")
                }
            }
        }
        for program in programs.dropFirst() {
            #expect(shellHelp.standardOutput.contains("mediashell \(program.name)"), "--help names \(program.name)")
            #expect(man.contains("mediashell \(program.name)"), "the man page names \(program.name)")
            #expect(completion.contains("\(program.name)"))
        }
        // The usage line is the declaration's synopsis.
        #expect(shellHelp.outputLines.first?.hasPrefix("usage: mediashell [--camera URL] [-f SCRIPT]") == true)
        #expect(serveHelp.outputLines.first?.hasPrefix("usage: mediashell serve [-l HOST:PORT]") == true)
    }

    @Test func theParserIsTheCommandsParser() throws {
        // Every form the shell's commands take: clusters, inline values, `--`.
        let arguments = try ShellArguments(["-nc", "ls; pwd", "--camera=sim:", "--download-dir", "/tmp/x"])
        #expect(arguments.skipsConfig && arguments.commands == "ls; pwd" && arguments.camera == "sim:")
        #expect(arguments.downloadFolder == "/tmp/x")
        let serve = try ServeCommand(arguments: ["-rl", "127.0.0.1:0", "--quirks=lazy-handles", "--", "-odd"])
        #expect(serve.readOnlyGiven && !serve.writable && serve.port == 0 && serve.folder == "-odd")
        for (line, expected) in [
            (["--bogus"], "mediashell: unknown option --bogus (try 'mediashell --help')"),
            (["-f"], "mediashell: option -f needs SCRIPT (try 'mediashell --help')"),
            (["stray"], "mediashell: unexpected argument 'stray' (try 'mediashell --help')"),
        ] {
            let error = #expect(throws: ArgumentError.self) { try ShellArguments(line) }
            #expect(error?.description == expected)
        }
        let wrongServe = try ShellBinary.run(["serve", "--bogus"])
        #expect(wrongServe.status == 2)
        #expect(wrongServe.errorLines == ["serve: unknown option --bogus (try 'mediashell serve --help')"], "one line")
        let wrongVerify = try ShellBinary.run(["verify", "--bogus", "/tmp"])
        #expect(wrongVerify.status == 2)
        #expect(wrongVerify.errorLines == ["verify: unknown option --bogus (try 'mediashell verify --help')"], "one line")
        let twoFolders = try ShellBinary.run(["serve", "a", "b"])
        #expect(twoFolders.errorLines == ["serve: unexpected argument 'b' (try 'mediashell serve --help')"])
    }
}
