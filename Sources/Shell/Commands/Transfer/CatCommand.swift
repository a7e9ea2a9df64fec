import CommandKit
import MediaManager
import TerminalKit
import Words

/// cat (less) NAME...: prints text files from the camera (a drone's `.SRT` telemetry, `.txt`, `.LOG`), read
/// through partial reads, at most `limit` bytes each; a file that is not text is refused, never dumped.
struct CatCommand: ShellCommand {
    /// The most a file may have to be printed: more is a download (`fetch`), not a look.
    static let limit: UInt64 = 4 << 20

    let spec = CommandSpec(
        "cat", aliases: ["less"], area: .transfer, arguments: [ArgumentSpec("NAME|GLOB", .remoteName, .oneOrMore)],
        summary: "print text files from the camera (.SRT, .txt, .LOG)",
        details: """
            Prints each named text file from the camera without downloading it: a drone's .SRT telemetry, a \
            .txt or .LOG. Files over 4 MB, and files that are not text, are refused ('fetch' them).
            """,
        examples: ["cat DJI_0003.SRT", "less *.LOG"])

    func run(_ invocation: Invocation, in shell: any CommandContext) throws -> CommandOutcome {
        let session = try shell.requireCamera()
        let files = try shell.files(for: invocation.arguments, catalog: try shell.loadedCatalog())
        for file in files {
            let name = SafeText.display(file.name)
            guard file.size <= Self.limit else {
                throw CommandError("\(name) is \(HumanReadable.size(file.size)): cat prints files up to "
                    + "\(HumanReadable.size(Self.limit)) ('fetch' it)")
            }
            let source = CameraByteSource(camera: session.camera, file: file)
            let bytes = try shell.interruptibly(session) { try source.read(offset: 0, count: Int(file.size)) }
            guard let lines = SidecarText.lines(bytes) else {
                throw CommandError("\(name) is not text ('fetch' it, or 'info' for what it is)")
            }
            if files.count > 1 { shell.output.line("==> \(name) <==") }
            for line in lines { shell.output.line(line) }
        }
        return .success
    }
}
