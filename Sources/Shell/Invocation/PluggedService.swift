import POSIX

/// The systemd user service `import --when-plugged` installs: a template unit that udev's rule starts, one
/// instance per device (`SYSTEMD_USER_WANTS=mediashell-plugged@%k.service` in 60-mediashell.rules, for
/// cameras and for cards' filesystems), whose ExecStart is `mediashell import --plugged NAME` with the
/// options given at install time. Its output goes to the journal (`journalctl --user -u 'mediashell-plugged@*'`).
enum PluggedService {
    /// The template unit's file name; udev names its instances.
    static let unitName = "mediashell-plugged@.service"

    /// What the package's udev rule says to start; a rule without it starts nothing.
    static let ruleMarker = "mediashell-plugged@"

    /// Where systemd looks for a user's own units: `$XDG_CONFIG_HOME/systemd/user`, else
    /// `~/.config/systemd/user` (systemd.unit(5)); nil without a home.
    static func folder(environment: [String: String]) -> String? {
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") { return config + "/systemd/user" }
        guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
        return (home == "/" ? "" : home) + "/.config/systemd/user"
    }

    /// The places udev reads the rule from, the one that wins first (udev(7): /etc over /run over the package's).
    static let ruleFiles = ["/etc/udev/rules.d/60-mediashell.rules", "/run/udev/rules.d/60-mediashell.rules",
        "/usr/lib/udev/rules.d/60-mediashell.rules", "/lib/udev/rules.d/60-mediashell.rules"]

    /// The unit's text: `executable` run with `arguments`, where the word `instance` stands for the
    /// device's name (systemd's `%i`).
    static func unitText(executable: String, arguments: [String]) -> String {
        let command = ([quoted(executable)] + arguments.map { $0 == instance ? "%i" : quoted($0) }).joined(separator: " ")
        return """
            # Installed by `mediashell import --when-plugged`; `mediashell import --stop-when-plugged` removes it.
            # udev starts one instance per camera or card (60-mediashell.rules: SYSTEMD_USER_WANTS), named by
            # the kernel's name for the device (1-2, sdb1). Its log: journalctl --user -u 'mediashell-plugged@*'
            [Unit]
            Description=mediashell: import the camera or card plugged in (%i)
            Documentation=man:mediashell(1)

            [Service]
            Type=oneshot
            ExecStart=\(command)
            Nice=5
            IOSchedulingClass=idle

            """
    }

    /// The word in `unitText`'s arguments that becomes the device's name.
    static let instance = "\u{0}instance"

    /// `word` as one argument of an ExecStart line (systemd.service(5), "Command lines"): in double quotes,
    /// with `\` and `"` escaped, `%` as `%%` (a specifier otherwise) and `$` as `$$` (a variable otherwise).
    static func quoted(_ word: String) -> String {
        var text = "\""
        for character in word {
            switch character {
            case "\\": text += "\\\\"
            case "\"": text += "\\\""
            case "%": text += "%%"
            case "$": text += "$$"
            case "\n": text += "\\n"
            case "\t": text += "\\t"
            default: text.append(character)
            }
        }
        return text + "\""
    }

    /// The rule file udev reads and whether it starts the service (the package's rule does; one copied by
    /// hand before this version does not).
    static func installedRule() -> (path: String, startsService: Bool)? {
        for path in ruleFiles {
            guard let text = try? PrivateFile.text(at: path) else { continue }
            return (path, text.contains(ruleMarker))
        }
        return nil
    }
}
