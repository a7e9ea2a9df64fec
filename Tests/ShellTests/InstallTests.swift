import CommandKit
import Foundation
import TestSupport
import Testing

@testable import Shell

/// `scripts/install` into a scratch prefix: the binary, a man page that `man -l` renders with every command
/// and option of the table, and a bash completion that loads and completes.
@Suite(.enabled(if: ShellBinary.exists && FileManager.default.isExecutableFile(atPath: "/usr/bin/man"),
    "needs the built mediashell binary and man"), .tags(.process), .notInFastRun)
struct InstallTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    @Test func installGivesAManPageAndACompletion() throws {
        let prefix = try TemporaryFolder("msh-prefix")
        let install = try ShellBinary.runProgram(Self.root + "/scripts/install", ["--binary", ShellBinary.path, prefix.path])
        #expect(install.status == 0, "\(install.standardError)")
        #expect(FileManager.default.isExecutableFile(atPath: prefix.path + "/bin/mediashell"))

        let man = try ShellBinary.runProgram(
            "/bin/sh", ["-c", "man -l \"$1\" | col -b", "sh", prefix.path + "/share/man/man1/mediashell.1"],
            environment: ["MANWIDTH": "80", "MANPAGER": "cat", "PAGER": "cat", "LANG": "C", "LC_ALL": "C"])
        #expect(man.status == 0, "\(man.standardError)")
        let page = man.standardOutput.replacingOccurrences(of: "\n", with: " ")
            .split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
        #expect(page.contains("mediashell - a shell for the photos and videos"))
        for command in CommandTable.standard.commands {
            #expect(page.contains(command.synopsis), "the man page lacks \(command.synopsis)")
            for option in command.options { #expect(page.contains(option.helpTerm), "\(command.name) \(option.helpTerm)") }
            for example in command.examples { #expect(page.contains(example), "\(command.name): \(example)") }
        }
        for option in ShellArguments.spec.optionSpellings { #expect(page.contains(option)) }

        let completion = prefix.path + "/share/bash-completion/completions/mediashell"
        let bash = try ShellBinary.runProgram(
            "/bin/bash",
            ["-c", """
                source "$1"; complete -p mediashell
                PATH="$2/bin:$PATH"
                COMP_LINE="mediashell --camera s"; COMP_POINT=${#COMP_LINE}; COMP_WORDS=(mediashell --camera s); _mediashell
                echo "camera: ${COMPREPLY[*]}"
                COMP_LINE="mediashell --down"; COMP_POINT=${#COMP_LINE}; _mediashell; echo "option: ${COMPREPLY[*]}"
                COMP_LINE="mediashell se"; COMP_POINT=${#COMP_LINE}; _mediashell; echo "first: ${COMPREPLY[*]}"
                """, "bash", completion, prefix.path])
        #expect(bash.status == 0, "\(bash.standardError)")
        #expect(bash.outputLines == [
            "complete -F _mediashell mediashell", "camera: sim:", "option: --download-dir", "first: serve",
        ])
    }
}
