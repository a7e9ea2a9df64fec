import Foundation
import POSIX
import TerminalKit

/// The config file, `$XDG_CONFIG_HOME/mediashell/config` (else `~/.config/mediashell/config`): lines in the
/// shell's own syntax (settings, aliases), run before the first prompt and before a script, unless `-n`.
enum ConfigFile {
    /// Where the config file is for `environment`, nil when neither variable gives an absolute folder.
    static func path(environment: [String: String]) -> String? {
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
            return config + "/mediashell/config"
        }
        if let home = environment["HOME"], home.hasPrefix("/") {
            return (home.hasSuffix("/") ? home : home + "/") + ".config/mediashell/config"
        }
        return nil
    }

    /// Writes `set NAME VALUE` into the file at `path`, replacing the line that set NAME before (or adding
    /// it at the end), through a temporary file renamed over the old one. Makes the folder when needed.
    static func save(setting name: String, value: String, at path: String) throws {
        try save("set \(name) \(LocalShell.quoted(value))", at: path) { setsSetting($0) == name }
    }

    /// Writes `alias NAME 'CMDS'` into the file at `path`, replacing the line that defined NAME before.
    static func save(alias name: String, body: String, at path: String) throws {
        try save("alias \(name) \(LocalShell.quoted(body))", at: path) { definesAlias($0) == name }
    }

    /// Writes `line` in place of the first line `replaces` says it replaces (the others it replaces go), or at
    /// the end.
    private static func save(_ line: String, at path: String, replacing replaces: (String) -> Bool) throws {
        let existing = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        var lines = existing.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        if let index = lines.firstIndex(where: replaces) {
            lines[index] = line
            lines.removeAll { $0 != line && replaces($0) }
        } else {
            lines.append(line)
        }
        let folder = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let temporary = path + ".new"
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: temporary))
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw CommandError("cannot write \(SafeText.display(path)): \(reason)")
        }
    }

    /// The alias a config line defines (`alias NAME 'CMDS'`), nil for any other line.
    static func definesAlias(_ line: String) -> String? {
        guard let statements = try? Tokenizer.statements(in: line), statements.count == 1 else { return nil }
        let words = statements[0].words.map(\.text).filter { $0 != "--save" }
        guard words.count >= 3, words[0] == "alias" else { return nil }
        return words[1]
    }

    /// The setting a config line sets (`set NAME VALUE`, `set --save NAME VALUE`), nil for any other line.
    static func setsSetting(_ line: String) -> String? {
        guard let statements = try? Tokenizer.statements(in: line), statements.count == 1 else { return nil }
        let words = statements[0].words.map(\.text).filter { $0 != "--save" }
        guard words.count >= 3, words[0] == "set" else { return nil }
        return words[1]
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
