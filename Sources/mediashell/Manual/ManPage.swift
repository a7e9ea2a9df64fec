import CommandKit
import Foundation
import TerminalKit

/// `mediashell.1`, made from the command table (every command, its options, lists and examples) and the
/// command-line options, so that the manual and `help` never disagree. `mediashell --man-page` prints it;
/// `scripts/install` installs it.
enum ManPage {
    /// `programs`: the executable's own command lines, the shell's first (its options are the executable's),
    /// then the programs named by a first word (`serve`, `devices`).
    static func render(table: CommandTable, programs: [CommandSpec], version: String) -> String {
        var out: [String] = []
        out.append(".TH MEDIASHELL 1 \"\" \"mediashell \(version)\" \"User Commands\"")
        // No hyphenation and no justification: names and options stay whole and searchable.
        out.append(".nh")
        out.append(".ad l")
        out.append(".SH NAME")
        out.append("mediashell \\- a shell for the photos and videos on a camera or drone")
        out.append(".SH SYNOPSIS")
        for (index, program) in programs.enumerated() {
            out.append(".br")
            out.append(text(program.synopsis(invokedAs: index == 0 ? nil : "mediashell \(program.name)")))
        }
        out.append(".SH DESCRIPTION")
        out.append(text(
            "mediashell lists, shows, downloads, deletes and plays the files on a camera reached over USB (PTP/MTP), "
                + "PTP/IP, or as a mounted card folder, or on its built-in virtual camera. At a terminal it is an "
                + "interactive shell with Tab completion of the camera's names; otherwise it runs a script."))
        out.append(".SH OPTIONS")
        for (index, program) in programs.enumerated() {
            if index > 0 {
                out.append(".SS \(program.name)")
                out.append(text(program.details.isEmpty ? program.summary : program.details))
            }
            out += definitions(program.options.map { HelpEntry($0.helpTerm, $0.summary) })
        }
        out.append(".SH COMMANDS")
        out.append(text(
            "Separate commands with ';'; '#' starts a comment; a leading '-' keeps a script going when that "
                + "command fails; quote names with spaces as in a POSIX shell."))
        for area in CommandArea.allCases {
            let members = table.commands.filter { $0.area == area }
            guard !members.isEmpty else { continue }
            out.append(".SS \(area.rawValue)")
            for command in members { out += entry(for: command) }
        }
        out.append(".SH CAMERA URLS")
        out.append(text(
            "usb: (the USB camera attached), usb:BUS,ADDR, usb:VVVV:PPPP, usb:serial=SERIAL, usb:model=NAME, "
                + "ptpip:HOST[:PORT[:EVENTPORT]], fuji:HOST[:PORT[:EVENTPORT]] (a Fujifilm X body on Wi-Fi), dir:PATH (a mounted card), sim: (the demo card), sim:PATH."))
        out.append(".SH FILES")
        out += definitions([
            HelpEntry("$XDG_CONFIG_HOME/mediashell/config", "commands (set, alias) run at start, before the first "
                + "prompt and before a script; else ~/.config/mediashell/config; -n skips it"),
            HelpEntry("$XDG_STATE_HOME/mediashell/history", "the prompt's history; else ~/.local/state/mediashell/history"),
            HelpEntry("$XDG_STATE_HOME/mediashell/ptpip-guid", "this computer's GUID for Wi-Fi cameras (which pair with it), "
                + "made once; set ptpip-guid HEX gives another"),
            HelpEntry("$XDG_STATE_HOME/mediashell/wifi-cameras", "the Wi-Fi cameras that let this computer in (their first "
                + "contact waits up to 60 s for a confirmation on the camera; later ones do not)"),
            HelpEntry("$XDG_STATE_HOME/mediashell/serve/SERIAL.peers", "serve --pair's answers, by GUID (never on the card)"),
        ])
        out.append(".SH EXIT STATUS")
        out.append(text(
            "0 when every command succeeded; 1 after a failure; 2 for a bad command line; 130 after Ctrl-C; 141 "
                + "when standard output's reader went away."))
        out.append(".SH SEE ALSO")
        out.append("gphoto2(1), sftp(1), lftp(1)")
        return out.joined(separator: "\n") + "\n"
    }

    private static func entry(for command: CommandSpec) -> [String] {
        var out = [".TP", "\\fB" + text(command.synopsis) + "\\fR"]
        if !command.aliases.isEmpty { out[1] += " (" + text(command.aliases.joined(separator: ", ")) + ")" }
        out.append(text(command.details.isEmpty ? command.summary : command.details))
        let lists = [("options", command.options.map { HelpEntry($0.helpTerm, $0.summary) })]
            + command.sections.map { ($0.title, $0.entries) }
        for (title, entries) in lists where !entries.isEmpty {
            out += [".RS", ".PP", text(title) + ":"]
            out += definitions(entries)
            out.append(".RE")
        }
        if !command.examples.isEmpty {
            out += [".RS", ".PP", "examples:", ".nf"]
            out += command.examples.map { "  " + text($0) }
            out += [".fi", ".RE"]
        }
        return out
    }

    private static func definitions(_ entries: [HelpEntry]) -> [String] {
        entries.flatMap { [".TP", "\\fB" + text($0.term) + "\\fR", text($0.text)] }
    }

    /// Text safe in roff: backslashes and dashes escaped, a line never starting with a control character.
    static func text(_ raw: String) -> String {
        var escaped = SafeText.display(raw).replacingOccurrences(of: "\\", with: "\\e")
        escaped = escaped.replacingOccurrences(of: "-", with: "\\-")
        escaped = escaped.replacingOccurrences(of: "\n", with: " ")
        if escaped.hasPrefix(".") || escaped.hasPrefix("'") { escaped = "\\&" + escaped }
        return escaped
    }
}
