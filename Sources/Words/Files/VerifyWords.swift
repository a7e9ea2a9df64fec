import Checksums
import Foundation
import Import
import TerminalKit

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

    /// `verify: 1,204 copies checked, 7.9 GB in 41.2 s (192 MB/s); 1 changed, 2 missing`.
    public static func summary(_ r: VerifyReport) -> String {
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
        if r.interrupted { text += "; interrupted" }
        return text
    }
}
