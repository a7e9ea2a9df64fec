import Checksums
import CommandKit
import Foundation
import Import
import POSIX
import TerminalKit
import Transfers
import Words

/// verify [DIR...]: re-checks imported copies against what the import recorded (bit rot, a drive that
/// lies, a file edited or moved): without DIR every copy the ledgers know; with DIRs the manifests at their
/// roots and the ledgers' copies under them. One line per problem, a summary; a failure when any.
struct VerifyCommand: ShellCommand {
    let spec = CommandSpec(
        "verify", area: .transfer, arguments: [ArgumentSpec("DIR", .localFolder, .zeroOrMore)],
        summary: "re-check imported copies against their checksums",
        details: """
            Reads every imported copy again from the disk (not the memory's cache) and compares it with the \
            checksum its bytes had when they arrived from the camera: without DIR every copy the import \
            ledgers know (in $XDG_DATA_HOME/mediashell/imports); with DIRs the manifests at their roots \
            (mediashell-import-*.xxh128, which also work after the folder was copied elsewhere) and the \
            ledgers' copies under them. Each problem is one line (missing, of another size, changed, \
            unreadable), then a summary; any problem makes it fail (exit 1 in a script). Needs no camera: \
            'mediashell verify [DIR...]' runs it from the command line.
            """,
        examples: ["verify", "verify ~/Pictures /media/ssd/Photos"])

    func run(_ invocation: Invocation, in shell: any CommandContext) throws -> CommandOutcome {
        let roots = invocation.arguments.map { ImportCommand.absolute(LocalDisk.expandingTilde($0.text)) }
        let ledgers = LedgerLocation.folder(environment: shell.environment)
        var copies = try CopyVerifier.fromLedgers(folder: ledgers, within: roots)
        for root in roots { copies += try CopyVerifier.fromManifests(in: root) }
        copies = CopyVerifier.distinct(copies)
        guard !copies.isEmpty else {
            let where_ = roots.isEmpty ? "the import ledgers (\(ledgers))" : roots.map(SafeText.display).joined(separator: ", ")
            throw CommandError("no imported copies recorded in \(where_): nothing to verify")
        }
        let line = BatchProgressLine(output: shell.output)
        let total = copies.reduce(UInt64(0)) { $0 + (POSIX.LocalDisk.regularFileSize($1.path) ?? 0) }
        let started = monotonicSeconds()
        let interrupt = shell.interrupt
        let report = CopyVerifier.check(
            copies, cancelled: { interrupt.isPending },
            progress: { done, bytes in
                let elapsed = monotonicSeconds() - started
                line.update(
                    BatchProgress(
                        filesDone: done, filesTotal: copies.count, bytesDone: bytes, bytesTotal: total,
                        bytesPerSecond: elapsed > 0 ? Double(bytes) / elapsed : 0, elapsed: elapsed,
                        current: copies[max(0, min(done, copies.count) - 1)].path),
                    at: monotonicSeconds())
            },
            problem: { problem in
                line.clear()
                shell.report("verify: " + VerifyWords.problem(problem))
            })
        line.clear()
        shell.output.line(VerifyWords.summary(report))
        if report.interrupted {
            shell.interrupt.clear()
            return .interrupted
        }
        return .failed(if: report.problems.count)
    }
}
