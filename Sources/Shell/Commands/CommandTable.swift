/// The one list of commands: `help`, argument checking and completion all read it.
public struct CommandTable: Sendable {
    /// Every command, in the order `help` lists them.
    public let commands: [CommandSpec]
    private let byName: [String: CommandSpec]

    public init(_ commands: [CommandSpec]) {
        self.commands = commands
        var byName: [String: CommandSpec] = [:]
        for command in commands {
            byName[command.name] = command
            for alias in command.aliases { byName[alias] = command }
        }
        self.byName = byName
    }

    /// The command called `name` (canonical name or alias).
    public func command(named name: String) -> CommandSpec? { byName[name] }

    /// The spec of a command by identity.
    public func command(_ id: CommandID) -> CommandSpec {
        byName[id.rawValue]!
    }

    /// Every name and alias a user can type, sorted.
    public var allNames: [String] { byName.keys.sorted() }

    /// The commands of mediashell.
    public static let standard = CommandTable(standardCommands)
}

private let jsonOption = OptionSpec(.json, long: "json", "print JSON instead of text")

private let standardCommands: [CommandSpec] = [
    // session
    CommandSpec(
        .help, aliases: ["?"], area: .session, arguments: [ArgumentSpec("CMD", .commandName, .optional)],
        summary: "list the commands, or explain one",
        details: "With no argument, lists every command. With CMD, shows its usage, options and what it does."),
    CommandSpec(
        .quit, aliases: ["exit"], area: .session, summary: "leave the shell",
        details: "Closes the camera and leaves. Ctrl-D on an empty line does the same."),
    CommandSpec(
        .open, area: .session, arguments: [ArgumentSpec("URL", .cameraURL)],
        summary: "open a camera",
        details: """
            Opens the camera at URL, closing the current one. URLs: usb:, usb:BUS,ADDR, usb:VVVV:PPPP, \
            ptpip:HOST[:PORT[:EVENTPORT]], dir:PATH, sim: and sim:PATH.
            """),
    CommandSpec(
        .close, area: .session, summary: "close the camera",
        details: "Ends the session with the camera; `open` starts another."),
    CommandSpec(
        .devices, area: .session, summary: "list the cameras that can be opened",
        details: "Lists the USB cameras attached to this computer, with the URL that opens each."),
    CommandSpec(
        .summary, area: .session, summary: "describe the camera and its card",
        details: "Shows the camera's model, serial number, storages and what it can do."),
    CommandSpec(
        .set, area: .session,
        arguments: [ArgumentSpec("NAME", .settingName, .optional), ArgumentSpec("VALUE", .text, .optional)],
        summary: "show or change a setting",
        details: """
            With no argument, lists the settings; with NAME, shows one; with NAME VALUE, changes it.
            errexit on|off: stop a script at the first failure (on). progress on|off: progress lines on a \
            terminal. timeout SECONDS: how long to wait for the camera (used by open and capture). \
            images auto|kitty|iterm|blocks|off: how thumbnails are drawn (auto: the terminal's image protocol \
            when it has one, else colour half blocks; off: text only). download-dir DIR: where fetch writes. \
            limit-rate BYTES|off: the most bytes per second a download takes (500k, 20M). \
            player auto|mpv|none: where play shows the video (auto: mpv at a prompt with a display, \
            none in scripts; mpv: whenever installed; none: never).
            """),
    CommandSpec(
        .history, area: .session, summary: "show the command history",
        details: "Lists the lines entered at the prompt, oldest first; they are kept across runs."),
    CommandSpec(
        .source, area: .session, arguments: [ArgumentSpec("FILE", .localPath)],
        summary: "run the commands of a script file",
        details: "Runs FILE line by line as a script: it stops at the first failure unless the line starts with -."),
    CommandSpec(
        .lcd, area: .session, arguments: [ArgumentSpec("DIR", .localFolder, .optional)],
        summary: "change the local folder",
        details: "Changes the folder on this computer that downloads go to (unless `set download-dir` names "
            + "another) and that local paths start from; with no DIR, goes to the home folder."),
    CommandSpec(
        .lpwd, area: .session, summary: "print the local folder",
        details: "Prints the local folder, and where downloads go when `set download-dir` points elsewhere."),

    // catalog
    CommandSpec(
        .storages, area: .catalog, summary: "list the camera's storages",
        details: "Lists each card or internal memory with its capacity and free space."),
    CommandSpec(
        .ls, aliases: ["dir"], area: .catalog,
        options: [
            OptionSpec(.long, short: "l", "long listing: size, date and type"),
            OptionSpec(.byTime, short: "t", "sort by date, newest first"),
            OptionSpec(.bySize, short: "S", "sort by size, largest first"),
            OptionSpec(.reverse, short: "r", "reverse the order"),
            OptionSpec(.thumbs, long: "thumbs", "a contact sheet of the photos' and videos' thumbnails"),
            jsonOption,
        ],
        arguments: [ArgumentSpec("GLOB", .remoteName, .zeroOrMore)],
        summary: "list files on the camera",
        details: """
            Lists the current folder, or the files and folders matching each GLOB. With --thumbs, draws the \
            thumbnails of the photos and videos among them, as many to a row as fit, each row as soon as its \
            thumbnails arrived (Ctrl-C stops it); a line per file when output is not a terminal or with \
            `set images off`.
            """),
    CommandSpec(
        .cd, area: .catalog, arguments: [ArgumentSpec("FOLDER", .remoteFolder, .optional)],
        summary: "change the camera folder",
        details: "Changes the current folder on the camera; with no FOLDER, goes to the top."),
    CommandSpec(
        .pwd, area: .catalog, summary: "print the camera folder",
        details: "Prints the current folder on the camera."),
    CommandSpec(
        .refresh, area: .catalog, summary: "read the file list again",
        details: "Discards the cached file list and reads it from the camera again."),
    CommandSpec(
        .state, area: .catalog, summary: "show the file list's state",
        details: "Shows whether the file list is being read, up to date, or out of date."),

    // selection
    CommandSpec(
        .select, area: .selection, arguments: [ArgumentSpec("NAME", .remoteName)],
        summary: "select a file",
        details: "Makes NAME the selected file (shown in the prompt); selecting another file resets the offset."),
    CommandSpec(
        .info, area: .selection, options: [jsonOption], arguments: [ArgumentSpec("NAME", .remoteName, .optional)],
        summary: "show a file's details",
        details: "Shows the size, date, type and dimensions of NAME, or of the selected file."),
    CommandSpec(
        .offset, area: .selection, arguments: [ArgumentSpec("BYTES", .byteCount, .optional)],
        summary: "show or set the download offset",
        details: "Shows how much of the selected file is downloaded; with BYTES, sets where the next fetch starts."),

    // transfer
    CommandSpec(
        .thumb, area: .transfer,
        options: [
            OptionSpec(.save, long: "save", value: ArgumentSpec("DIR", .localFolder), "write each thumbnail into DIR"),
            OptionSpec(.force, long: "force", "overwrite thumbnails already saved"),
        ],
        arguments: [ArgumentSpec("NAME|GLOB", .remoteName, .zeroOrMore)],
        summary: "show thumbnails",
        details: """
            Draws the thumbnail of each named file, or of the selected file, with its name under it, several to \
            a row when they fit (the file itself is not downloaded). A video without one of its own shows its \
            .THM sidecar or the first frame of its .LRF proxy (decoded by ffmpeg, when installed). On a \
            terminal the picture uses its image protocol (kitty, iTerm2) or colour half blocks (see `set \
            images`); otherwise a line per file gives the thumbnail's size. With --save DIR, writes them as \
            NAME.thumb.jpg instead.
            """),
    CommandSpec(
        .fetch, aliases: ["get"], area: .transfer,
        options: [
            OptionSpec(.continue, short: "c", long: "continue", "resume a partial download"),
            OptionSpec(
                .output, short: "o", long: "output", value: ArgumentSpec("DIR", .localFolder),
                "download into DIR"),
            OptionSpec(.new, long: "new", "only files not downloaded before"),
            OptionSpec(.force, long: "force", "overwrite existing files"),
            OptionSpec(.deleteAfter, long: "delete-after", "delete each file from the camera once it arrived"),
        ],
        arguments: [ArgumentSpec("NAME|GLOB", .remoteName, .zeroOrMore)],
        summary: "download files",
        details: """
            Downloads each named file, or the selected file, into the download folder (the local folder unless \
            `set download-dir` or -o says otherwise). A download writes NAME.part and renames it when complete; \
            an interrupted one (Ctrl-C, a dropped connection) continues from where it stopped, and an existing \
            file is never replaced without --force. -c is accepted for habit: continuing is what fetch always does.
            """),

    // edit
    CommandSpec(
        .edit, area: .edit, summary: "enter edit mode",
        details: "In edit mode `delete` removes files without --force; the prompt shows the mode."),
    CommandSpec(
        .done, area: .edit, summary: "leave edit mode",
        details: "Leaves edit mode."),
    CommandSpec(
        .delete, aliases: ["rm"], area: .edit,
        options: [OptionSpec(.force, long: "force", "delete outside edit mode")],
        arguments: [ArgumentSpec("NAME|GLOB", .remoteName, .oneOrMore)],
        summary: "delete files from the camera",
        details: "Deletes each named file and reports each result. Needs edit mode, or --force."),

    // playback
    CommandSpec(
        .play, area: .playback, arguments: [ArgumentSpec("NAME", .remoteName, .optional)],
        summary: "play a video from the card",
        details: """
            Plays NAME (and selects it) from the start, streaming it from the camera without downloading it; \
            with no NAME, goes on with the loaded video, or plays the selected file. The video shows in mpv \
            when `set player` allows it; without a player, playback runs on the shell's clock. The prompt \
            shows the state while a video is loaded.
            """),
    CommandSpec(.pause, area: .playback, summary: "pause playback", details: "Pauses playback where it is."),
    CommandSpec(.resume, area: .playback, summary: "resume playback", details: "Resumes paused playback."),
    CommandSpec(
        .stop, area: .playback, summary: "stop playback",
        details: "Stops playback and goes back to the start; closes the player. The video stays loaded."),
    CommandSpec(
        .seek, area: .playback, arguments: [ArgumentSpec("POS", .seekPosition)],
        summary: "jump to a position in the video",
        details: """
            POS is seconds (12.5), m:ss(.f) (1:02.5), relative +N or -N seconds, or N% of the length. The seek \
            lands on the keyframe at or before POS and says which; a POS before the start or past the end is \
            clamped. A stopped video is paused there.
            """),
    CommandSpec(
        .step, area: .playback, arguments: [ArgumentSpec("N", .integer, .optional)],
        summary: "step frames",
        details: "Steps N frames forward (backward when negative) while paused; one frame with no N."),
    CommandSpec(
        .status, area: .playback, options: [jsonOption], summary: "show the playback state",
        details: """
            Shows the loaded video, its state, position and length, frame, rate, size, orientation, the \
            keyframe the last seek landed on and the player's own position. --json prints it as one JSON \
            object with sorted keys ({"state":"unloaded"} when no video is loaded).
            """),

    // camera
    CommandSpec(
        .mode, area: .camera, arguments: [ArgumentSpec("download|shoot", .choice(["download", "shoot"]), .optional)],
        summary: "show or change the camera mode",
        details: "Shows the camera's mode, or switches it between downloading files and shooting."),
    CommandSpec(
        .capture, aliases: ["shoot"], area: .camera, summary: "take a photo",
        details: "Asks the camera to take a photo; the new file appears in the list."),
]
