import CameraFacts
import Checksums
import Foundation
import TextKit

/// What `verify` says of the copies it read back.
public enum VerifyWords {
    /// One copy that is not as recorded: `PATH: missing (recorded by ...)`.
    public static func problem(_ problem: CopyProblem) -> String {
        let copy = problem.copy
        let path = SafeText.display(copy.path)
        let by = "recorded by " + SafeText.display(copy.recordedBy)
        switch problem {
        case .missing: return "\(path): missing (\(by))"
        case .wrongSize(_, let found):
            return "\(path): \(found) bytes, not the \(copy.size ?? 0) recorded (\(by))"
        case .changed(_, let found):
            return "\(path): changed: its bytes give \(found), not the \(copy.expected?.description ?? "") \(by)"
        case .unreadable(_, let error): return "\(path): cannot be read: \(LocalFailureWords.sentence(for: error))"
        }
    }

    /// `repaired PATH from PATH2 (its checksum proven); the bad copy is kept as PATH.verify-failed`.
    public static func repaired(_ repair: CopyRepair) -> String {
        let from =
            switch repair.source {
            case .copy(let other): SafeText.display(other) + " (its checksum proven)"
            case .camera(let cardPath): "the camera (\(SafeText.display(cardPath)): its checksum proven)"
            }
        let kept = repair.keptAs.map { "; the bad copy is kept as " + SafeText.display($0) } ?? ""
        return "repaired \(SafeText.display(repair.path)) from \(from)\(kept)"
    }

    /// `PATH: not repaired: WHY`.
    public static func notRepaired(_ refused: NotRepaired) -> String {
        let copy = refused.problem.copy
        let expected = copy.expected?.description ?? ""
        let why: String
        switch refused.why {
        case .noChecksum:
            why = "no checksum was recorded for it (imported with --verify none), so nothing proves that other bytes are its own"
        case .unknownToLedgers:
            why = "only \(SafeText.display(copy.recordedBy)) records it: no import ledger knows another copy of it, nor the camera it came from"
        case .folderGone(let folder):
            why = "its folder \(SafeText.display(folder)) is not there (is its drive mounted?), and nothing is written where it was"
        case .noProvenSource(let tried, let camera):
            let copies =
                tried.isEmpty
                ? "the ledger knows no other copy of it"
                : "no other copy gives \(expected) (" + tried.map(otherCopy).joined(separator: "; ") + ")"
            why = copies + ", " + cameraSaid(camera, expected: expected)
        case .failed(let error):
            why = "the proven bytes could not be written beside it: " + ErrorWords.sentence(for: error)
        }
        return "\(SafeText.display(copy.path)): not repaired: \(why)"
    }

    /// Another copy that could not be a source: `PATH changed`.
    private static func otherCopy(_ problem: CopyProblem) -> String {
        let path = SafeText.display(problem.copy.path)
        switch problem {
        case .missing: return path + " is missing"
        case .wrongSize(_, let found): return "\(path) has \(found) bytes"
        case .changed: return path + " changed too"
        case .unreadable(_, let error): return "\(path) cannot be read: " + LocalFailureWords.sentence(for: error)
        }
    }

    /// What the open camera could not do, after the other copies.
    private static func cameraSaid(_ attempt: CameraAttempt, expected: String) -> String {
        switch attempt {
        case .notOpen:
            return "and no camera is open (with the camera it came from open, 'verify --repair' fetches it again while its card still holds it)"
        case .otherCamera(let recordedFor):
            return "and the open camera is not the one it came from (\(SafeText.display(recordedFor)))"
        case .notOnCard:
            return "and the open camera's card no longer holds it (the same name, size and date)"
        case .differs(let found):
            return "and the camera's file gives \(found), not the \(expected) recorded: not replaced"
        case .failed(let error):
            return "and fetching it from the camera failed: " + ErrorWords.sentence(for: error)
        }
    }

    /// `verify: 1,204 copies checked, 7.9 GB in 41.2 s (192 MB/s); 1 changed, 2 missing`, and with `repairs`
    /// (`verify --repair`) `; 2 repaired` or `; 1 repaired, 1 not repaired`.
    public static func summary(_ r: VerifyReport, repairs: RepairReport? = nil) -> String {
        var text = "verify: \(r.copies) cop\(r.copies == 1 ? "y" : "ies") checked"
        if r.withoutChecksum > 0 { text += " (\(r.withoutChecksum) without a checksum: presence and size only)" }
        text += ", \(HumanReadable.size(r.bytes)) read in " + String(format: "%.1f s", r.seconds)
        if r.seconds > 0.05 && r.bytes > 0 { text += " (\(HumanReadable.rate(bytesPerSecond: Double(r.bytes) / r.seconds)))" }
        var counts: [String] = []
        let missing = r.problems.filter { if case .missing = $0 { true } else { false } }.count
        let changed = r.problems.filter { if case .changed = $0 { true } else { false } }.count
        let size = r.problems.filter { if case .wrongSize = $0 { true } else { false } }.count
        let unreadable = r.problems.count - missing - changed - size
        if changed > 0 { counts.append("\(changed) changed") }
        if size > 0 { counts.append("\(size) of another size") }
        if missing > 0 { counts.append("\(missing) missing") }
        if unreadable > 0 { counts.append("\(unreadable) unreadable") }
        text += counts.isEmpty ? "; all as recorded" : "; " + counts.joined(separator: ", ")
        if let repairs, !r.problems.isEmpty && !r.interrupted {
            text += "; \(repairs.repaired.count) repaired"
            if !repairs.notRepaired.isEmpty { text += ", \(repairs.notRepaired.count) not repaired" }
        }
        if r.interrupted || repairs?.interrupted == true { text += "; interrupted" }
        return text
    }
}
