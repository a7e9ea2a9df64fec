import CommandKit

extension CommandTable {
    /// The commands of mediashell.
    public static let standard = CommandTable(standardCommands)

    /// Every command of mediashell, in the order `help` lists them within each area.
    public static let standardCommands: [any ShellCommand] = [
        // session
        HelpCommand(), QuitCommand(), OpenCommand(), CloseCommand(), DevicesCommand(), SummaryCommand(),
        SetCommand(), HistoryCommand(), SourceCommand(),
        // catalog
        StoragesCommand(), ListCommand(), FindCommand(), DiskUsageCommand(), CdCommand(), PwdCommand(), RefreshCommand(),
        StateCommand(),
        // selection
        SelectCommand(), InfoCommand(), OffsetCommand(),
        // transfer
        ThumbCommand(), FetchCommand(), MirrorCommand(), CatCommand(), ImportCommand(), VerifyCommand(), PutCommand(),
        // jobs
        JobsCommand(), WaitCommand(), KillCommand(), FgCommand(),
        // edit
        EditCommand(), DoneCommand(), DeleteCommand(), MkdirCommand(), RmdirCommand(),
        // playback
        PlayCommand(), PauseCommand(), ResumeCommand(), StopCommand(), SeekCommand(), FrameCommand(), StepCommand(),
        StatusCommand(),
        // camera
        ModeCommand(), CaptureCommand(), LiveViewCommand(), WatchCommand(), EventsCommand(), PropsCommand(), PropCommand(), SyncTimeCommand(),
        MountFolderCommand(), UmountCommand(),
        // local
        BangCommand(), LcdCommand(), LpwdCommand(), LlsCommand(), LmkdirCommand(), EchoCommand(), ClearCommand(),
        // config
        AliasCommand(), UnaliasCommand(),
    ]
}

extension CompletionEngine {
    /// Completion over mediashell's commands.
    public init() { self.init(table: .standard) }
}
