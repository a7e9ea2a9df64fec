import Foundation
import POSIX
import TerminalKit

/// The config file (`ConfigFile`, `$XDG_CONFIG_HOME/mediashell/config`): lines in the shell's own syntax
/// (settings, aliases), run before the first prompt and before a script, unless `-n`.
extension ConfigFile {
    /// Where mediashell's config file is for `environment`.
    static func path(environment: [String: String]) -> String? { path(environment: environment, program: "mediashell") }

    /// Writes `set NAME VALUE` into the file at `path`, replacing the line that set NAME before.
    static func save(setting name: String, value: String, at path: String) throws {
        try saying(path) { try save("set", name: name, value: value, at: path) }
    }

    /// Writes `alias NAME 'CMDS'` into the file at `path`, replacing the line that defined NAME before.
    static func save(alias name: String, body: String, at path: String) throws {
        try saying(path) { try save("alias", name: name, value: body, at: path) }
    }

    /// A file that cannot be put in place is one line naming it.
    private static func saying(_ path: String, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as SystemError where error.call == .rename {
            throw CommandError("cannot write \(SafeText.display(path)): \(error.reason)")
        }
    }
}

extension Interpreter {
    /// Runs the config file at `path`, if there is one: each failure is reported with `FILE:LINE` and the
    /// file goes on; nothing in it changes the shell's exit status.
    public func runConfig(at path: String) {
        guard LocalDisk.exists(path) else { return }
        guard let data = FileManager.default.contents(atPath: path), data.count <= 1 << 20 else {
            report("cannot read the config file \(SafeText.display(path)) (or it is over 1 MiB)", severity: .warning)
            return
        }
        let reader = TextLineSource(String(decoding: data, as: UTF8.self))
        isRunningConfig = true
        defer { isRunningConfig = false }
        quitRequested = false
        _ = runScript(reader, name: path)
        quitRequested = false
    }
}
