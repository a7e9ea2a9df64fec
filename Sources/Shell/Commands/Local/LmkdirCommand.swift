import CommandKit
import Foundation
import POSIX
import TerminalKit

/// lmkdir [-p] DIR...: makes folders on this computer.
struct LmkdirCommand: ShellCommand {
    let spec = CommandSpec(
        "lmkdir", area: .local,
        options: [OptionSpec(.parents, short: "p", "make the parent folders too; no error if it exists")],
        arguments: [ArgumentSpec("DIR", .localFolder, .oneOrMore)],
        summary: "make a local folder",
        details: "Makes each DIR on this computer (relative to the local folder, ~ for home).",
        examples: ["lmkdir imports", "lmkdir -p ~/Pictures/drone/2024"])

    func run(_ invocation: Invocation, in shell: any CommandContext) throws -> CommandOutcome {
        let parents = invocation.has(.parents)
        for word in invocation.arguments {
            let path = LocalDisk.expandingTilde(word.text)
            if LocalDisk.exists(path) && !(parents && LocalDisk.isDirectory(path)) {
                throw CommandError("\(SafeText.display(path)) already exists")
            }
            do {
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: parents)
            } catch {
                throw CommandError("cannot make \(SafeText.display(path)): \(error.localizedDescription)")
            }
        }
        return .success
    }
}

extension OptionName {
    static let parents: OptionName = "parents"
}
