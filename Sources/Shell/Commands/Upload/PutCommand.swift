import CommandKit
import Foundation
import MediaManager
import POSIX
import TerminalKit
import Words

/// put LOCAL... [-o FOLDER]: uploads local files into the current camera folder (or FOLDER), each with a
/// progress line on a terminal; a send that fails deletes what the camera had made of it.
struct PutCommand: ShellCommand {
    let spec = CommandSpec(
        "put", area: .transfer,
        options: [
            OptionSpec(
                .output, short: "o", long: "output", value: ArgumentSpec("FOLDER", .remoteFolder),
                "upload into FOLDER on the camera")
        ],
        arguments: [ArgumentSpec("LOCAL", .localPath, .oneOrMore)],
        summary: "upload files to the camera",
        details: """
            Sends each LOCAL file to the camera, into the current folder or FOLDER, under its own name, where \
            the camera takes uploads (SendObjectInfo, then SendObject). A name already in that folder is \
            refused; a send that fails or is interrupted (Ctrl-C) deletes what the camera made of it.
            """)

    func run(_ invocation: Invocation, in shell: any CommandContext) throws -> CommandOutcome {
        let session = try UploadTarget.uploadingSession(shell, "put", doing: FolderAccessWords.uploading)
        let catalog = try shell.loadedCatalog()
        let folder = try invocation.value(of: .output).map { try UploadTarget.folder($0, shell, catalog: catalog) }
            ?? shell.state.folder
        let interrupt = shell.interrupt
        let cancellation = interrupt.cancellation
        var failures = 0
        for word in invocation.arguments {
            if cancellation.isCancelled { return .interrupted }
            let path = LocalDisk.expandingTilde(word.text)
            do {
                try send(path, into: folder, session: session, catalog: catalog, shell: shell, cancellation: cancellation)
            } catch {
                if cancellation.isCancelled {
                    shell.report("put: \(SafeText.display(word.text)): interrupted; nothing of it stays on the camera")
                    return .interrupted
                }
                failures += 1
                shell.report("put: \(SafeText.display(word.text)): \(Interpreter.message(for: error))")
            }
        }
        return .failed(if: failures)
    }

    private func send(
        _ path: String, into folder: String, session: MediaSession, catalog: MediaCatalog, shell: any CommandContext,
        cancellation: Cancellation
    ) throws {
        guard LocalDisk.exists(path) else { throw CommandError("no such file") }
        guard !LocalDisk.isDirectory(path) else { throw CommandError("is a folder (put sends files)") }
        let name = try UploadTarget.checkedName((path as NSString).lastPathComponent)
        if (catalog.contents(of: folder) ?? []).contains(where: { $0.name == name }) {
            throw CommandError("\(RemotePath.display(RemotePath.child(name, of: folder))) is already on the camera")
        }
        let size = ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.uint64Value ?? 0
        var meter: ProgressMeter?
        if let write = shell.output.progress {
            let width = max(20, (shell.output.terminalColumns ?? 80) - 2)
            meter = ProgressMeter(name: name, total: size, isTerminal: true, width: { width }, write: write)
        }
        defer { if meter != nil { shell.output.progress?("\r\u{1B}[K") } }
        let file = try session.upload(
            path, as: name, into: folder,
            progress: { done in meter?.update(done: done, at: ProcessInfo.processInfo.systemUptime) },
            cancellation: cancellation)
        let shown = RemotePath.display(file?.path ?? RemotePath.child(name, of: folder))
        shell.output.note("put \(SafeText.display(path)) -> \(shown) (\(HumanReadable.size(size)))")
    }
}
