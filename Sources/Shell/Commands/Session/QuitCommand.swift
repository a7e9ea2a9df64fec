import CommandKit

/// quit (exit): ends playback and leaves; the interpreter closes the camera on the way out.
struct QuitCommand: ShellCommand {
    let spec = CommandSpec(
        "quit", aliases: ["exit"], area: .session, summary: "leave the shell",
        details: "Closes the camera and leaves. Ctrl-D on an empty line does the same.")

    func run(_ invocation: Invocation, in shell: any SessionContext) throws -> CommandOutcome {
        shell.stopPlayback()
        shell.quitRequested = true
        return .success
    }
}
