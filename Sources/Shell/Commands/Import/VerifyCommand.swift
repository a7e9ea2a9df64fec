import Checksums
import CommandKit
import Foundation
import Import
import MediaManager
import POSIX
import TerminalKit
import Transfers
import Words

extension OptionName {
    static let repair: OptionName = "repair"
}

/// verify [--repair] [DIR...]: re-checks imported copies against what the import recorded (bit rot, a drive
/// that lies, a file edited or moved): without DIR every copy the ledgers know; with DIRs the manifests at
/// their roots and the ledgers' copies under them. One line per problem, a summary; a failure when any.
/// With --repair each copy that failed is replaced with proven bytes (`CopyRepairer`): a failure when one
/// could not be.
struct VerifyCommand: ShellCommand {
    /// `--repair`, here and in `mediashell verify`.
    static let repairOption = OptionSpec(
        .repair, long: "repair",
        "replace each copy that fails with proven bytes: another copy that gives the recorded checksum, else "
            + "the open camera's file while its card still holds it; the bad copy is kept as NAME.verify-failed")

    let spec = CommandSpec(
        "verify", area: .transfer, options: [Self.repairOption],
        arguments: [ArgumentSpec("DIR", .localFolder, .zeroOrMore)],
        summary: "re-check imported copies against their checksums (--repair: replace those that fail)",
        details: """
            Reads every imported copy again from the disk (not the memory's cache) and compares it with the \
            checksum its bytes had when they arrived from the camera: without DIR every copy the import \
            ledgers know (in $XDG_DATA_HOME/mediashell/imports); with DIRs the manifests at their roots \
            (mediashell-import-*.xxh128, which also work after the folder was copied elsewhere) and the \
            ledgers' copies under them, and the files their ASC MHL histories (ascmhl/) record, each against \
            its original hash (XXH3-128, XXH64, XXH3-64, MD5, SHA-1 or C4, whoever wrote it); a new \
            generation there then records each file checked as verified or failed (without DIR, in each history \
            above a copy checked). Each problem is one line (missing, of another size, changed, \
            unreadable), then a summary; any problem makes it fail (exit 1 in a script). Needs no camera: \
            'mediashell verify [--repair] [DIR...]' runs it from the command line. \
            \(Self.repairDetails)
            """,
        examples: ["verify", "verify ~/Pictures /media/ssd/Photos", "verify --repair", "verify --repair /media/ssd/Photos"])

    /// What `--repair` does, in `help verify` and `mediashell verify --help`.
    static let repairDetails = """
        With --repair each copy that fails is replaced: from another copy the ledger knows (the first copy, a \
        --backup copy) that gives the recorded checksum as it is read now, else, with the camera it came from \
        open, from the camera's file when its bytes give that checksum as they arrive. The new bytes go \
        through NAME.part and take the copy's name only once proven; the copy that failed is kept as \
        NAME.verify-failed. The ledger entry records each repair, and so does a line in mediashell-repairs.log \
        at the destination's root, beside its manifests (which stay as they are). A copy imported with \
        --verify none has no checksum to prove other bytes by, and is not repaired. One line per copy \
        repaired, or not and why; it fails unless every copy was repaired.
        """

    func run(_ invocation: Invocation, in shell: any CommandContext) throws -> CommandOutcome {
        let repairing = invocation.has(.repair)
        let roots = invocation.arguments.map { ImportCommand.absolute(LocalDisk.expandingTilde($0.text)) }
        let ledgers = LedgerLocation.folder(environment: shell.environment)
        var copies = try CopyVerifier.fromLedgers(folder: ledgers, within: roots)
        for root in roots {
            copies += try CopyVerifier.fromManifests(in: root)
            copies += try MHLRecheck.copies(in: root)
        }
        copies = CopyVerifier.distinct(copies)
        guard !copies.isEmpty else {
            let where_ = roots.isEmpty ? "the import ledgers (\(ledgers))" : roots.map(SafeText.display).joined(separator: ", ")
            throw CommandError("no imported copies recorded in \(where_): nothing to verify")
        }
        let line = BatchProgressLine(output: shell.output)
        let total = copies.reduce(UInt64(0)) { $0 + (POSIX.LocalDisk.regularFileSize($1.path) ?? 0) }
        let interrupt = shell.interrupt
        let report = CopyVerifier.check(
            copies, cancellation: interrupt.cancellation,
            progress: Self.progress(on: line, files: copies.map(\.path), bytes: total),
            problem: { problem in
                line.clear()
                // What --repair goes on to repair is a warning; what is not repaired is said as an error then.
                shell.report("verify: " + VerifyWords.problem(problem), severity: repairing ? .warning : .error)
            })
        // Each folder's ASC MHL history records what this check found, before anything is repaired: the
        // folders named, else each history above a copy checked.
        let checked = Array(copies.prefix(report.copies))
        for root in roots.isEmpty ? MHLRecheck.roots(above: checked.map(\.path)) : roots {
            if let written = try MHLRecheck.record(
                checked, problems: report.problems, in: root, creator: MHLCreator(tool: "mediashell", version: Shell.version))
            {
                line.clear()
                shell.output.note("verify: recorded in \(SafeText.display(written))")
            }
        }
        var repairs: RepairReport?
        if repairing && !report.interrupted && !report.problems.isEmpty {
            repairs = try repair(report.problems, ledgers: ledgers, shell, line)
        }
        line.clear()
        shell.output.note(VerifyWords.summary(report, repairs: repairs))
        if report.interrupted || repairs?.interrupted == true {
            shell.interrupt.clear()
            return .interrupted
        }
        return .failed(if: repairs?.notRepaired.count ?? report.problems.count)
    }

    /// Replaces the copies that failed, from the open camera too when it is the one they came from: one line
    /// for each, as it is done.
    private func repair(
        _ problems: [CopyProblem], ledgers folder: String, _ shell: any CommandContext, _ line: BatchProgressLine
    ) throws -> RepairReport {
        let camera = try shell.media.map { RepairCamera(session: $0, ledgers: try Importer.ledgers(for: $0, folder: folder)) }
        let interrupt = shell.interrupt
        let repairer = try CopyRepairer(
            ledgerFolder: folder, camera: camera, cancellation: interrupt.cancellation)
        let total = problems.reduce(UInt64(0)) { $0 + ($1.copy.size ?? POSIX.LocalDisk.regularFileSize($1.copy.path) ?? 0) }
        return try repairer.repair(
            problems, progress: Self.progress(on: line, files: problems.map(\.copy.path), bytes: total),
            each: { result in
                line.clear()
                switch result {
                case .repaired(let repair): shell.output.note(VerifyWords.repaired(repair))
                case .notRepaired(let refused): shell.report("verify: " + VerifyWords.notRepaired(refused))
                }
            })
    }

    /// The progress line of a pass over `files` (`bytes` in all): how many were begun, the bytes read, the
    /// rate, the last one begun.
    private static func progress(
        on line: BatchProgressLine, files: [String], bytes total: UInt64
    ) -> (_ done: Int, _ bytes: UInt64) -> Void {
        let started = monotonicSeconds()
        return { done, bytes in
            let elapsed = monotonicSeconds() - started
            line.update(
                BatchProgress(
                    filesDone: done, filesTotal: files.count, bytesDone: bytes, bytesTotal: total,
                    bytesPerSecond: elapsed > 0 ? Double(bytes) / elapsed : 0, elapsed: elapsed,
                    current: files[max(0, min(done, files.count) - 1)]),
                at: monotonicSeconds())
        }
    }
}
