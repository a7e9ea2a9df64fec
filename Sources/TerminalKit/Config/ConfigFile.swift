import Foundation
import POSIX

/// A program's config file, `$XDG_CONFIG_HOME/PROGRAM/config` (else `~/.config/PROGRAM/config`): lines in the
/// program's own command syntax, edited one definition at a time (`set NAME VALUE`, `alias NAME 'CMDS'`).
public enum ConfigFile {
    /// Where `program`'s config file is for `environment`, nil when neither variable gives an absolute folder.
    public static func path(environment: [String: String], program: String) -> String? {
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
            return config + "/\(program)/config"
        }
        if let home = environment["HOME"], home.hasPrefix("/") {
            return (home.hasSuffix("/") ? home : home + "/") + ".config/\(program)/config"
        }
        return nil
    }

    /// Writes `verb NAME VALUE` (VALUE quoted for the shell) into the file at `path`, replacing the line that
    /// gave NAME to `verb` before (or adding it at the end), through a temporary file renamed over the old
    /// one. Makes the folder when needed. Throws the `rename`'s `SystemError`, or what writing threw.
    public static func save(_ verb: String, name: String, value: String, at path: String) throws {
        let line = "\(verb) \(name) '" + ShellQuoting.escapeInSingleQuotes(value) + "'"
        let replaces = { (existing: String) in definition(verb, in: existing) == name }
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
        do {
            try LocalDisk.rename(temporary, to: path)
        } catch {
            unlink(temporary)
            throw error
        }
    }

    /// The name a config line gives to `verb` (`alias NAME 'CMDS'`, `set --save NAME VALUE`), nil for any
    /// other line.
    public static func definition(_ verb: String, in line: String) -> String? {
        guard let statements = try? Tokenizer.statements(in: line), statements.count == 1 else { return nil }
        let words = statements[0].words.map(\.text).filter { $0 != "--save" }
        guard words.count >= 3, words[0] == verb else { return nil }
        return words[1]
    }
}
