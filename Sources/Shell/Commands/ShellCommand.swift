import CommandKit
import TerminalKit

/// One command of the shell: its spec (names, help text, options and arguments, which the parser, `help` and
/// Tab completion all read) and what it does.
///
/// ## Adding a command
/// 1. Write one file, `Sources/Shell/Commands/<Area>/<Name>Command.swift`:
///    ```swift
///    /// hello [NAME]: greets NAME.
///    struct HelloCommand: ShellCommand {
///        let spec = CommandSpec(
///            "hello", area: .session, arguments: [ArgumentSpec("NAME", .text, .optional)],
///            summary: "say hello", details: "Prints a greeting to NAME, or to the world.")
///
///        func run(_ invocation: Invocation, in shell: any CommandContext) throws -> CommandOutcome {
///            shell.output.line("hello " + SafeText.display(invocation.arguments.first?.text ?? "world"))
///            return .success
///        }
///    }
///    ```
/// 2. Add `HelloCommand()` to the list in `CommandList.swift`, at the place `help` should show it.
///
/// `run` gets an `Invocation` already checked against the spec (options sorted out, argument counts and
/// kinds such as numbers, seek positions and choices verified), so it never parses again. A failure is an
/// error thrown: the interpreter reports it as `NAME: message`, adds the shell's hints, and closes a camera
/// that went away. A command that reported its failures itself (one line per file of a batch) returns
/// `.failed`; one that Ctrl-C stopped, after saying where, returns `.interrupted`. `run` gets the narrowest
/// context its work needs (`CommandContext`: the open camera with `requireCamera()` and `loadedCatalog()`, the
/// session state, `output`, `report(_:severity:)` and the lookups shared by commands, `files(for:catalog:)`,
/// `oneFile(for:in:command:)`; `JobContext` adds the jobs, `PlaybackContext` the video being played,
/// `HelpContext` the command table, `ConfigContext` aliases and the config file, `SessionContext` opening,
/// closing, scripts and quitting). No command gets the interpreter itself.
/// A helper used by one command stays in that command's file; one used by several goes in its area's folder.
/// Each file imports the modules whose members it uses (`MemberImportVisibility`), and a module new to the
/// shell goes in Package.swift and in the table of `scripts/check-layers`.
public protocol ShellCommand: CommandDeclaration {
    /// What `run` may use: `any CommandContext` or a wider context protocol.
    associatedtype Context
    /// Runs one checked invocation of the command.
    func run(_ invocation: Invocation, in shell: Context) throws -> CommandOutcome
}
