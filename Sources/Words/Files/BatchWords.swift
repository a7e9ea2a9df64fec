import CameraFacts
import Foundation
import TextKit

/// What a batch of downloads (`fetch`, `import`, `capture --fetch`) says when it ends.
public enum BatchWords {
    /// `import: 12 fetched, 30 skipped (already imported), 1 renamed, 0 failed; 340 MB in 4.2 s`.
    public static func summaryLine(_ s: BatchSummary, command: String) -> String {
        var text = "\(command): \(s.fetched) fetched, \(s.skipped) skipped (already imported), \(s.renamed) renamed, "
        // A file missing from a destination failed there, though it came home: it counts as failed.
        let missing = s.missingCopies.count
        text += "\(s.failed + missing) failed"
        if missing > 0 { text += " (\(missing) not in every destination)" }
        text += "; \(HumanReadable.size(s.bytes)) in "
        text += s.seconds < 60 ? String(format: "%.1f s", s.seconds) : HumanReadable.duration(seconds: s.seconds)
        if s.seconds > 0.05 && s.bytes > 0 { text += " (\(HumanReadable.rate(bytesPerSecond: Double(s.bytes) / s.seconds)))" }
        if s.bytesKept > 0 { text += ", \(HumanReadable.size(s.bytesKept)) of it kept in .part files for the next run to continue" }
        // Where each destination's checksums went: `cd` there and `xxhsum -c NAME` checks every copy.
        for manifest in s.manifests { text += "; checksums in \(SafeText.display(manifest))" }
        for generation in s.mhlGenerations { text += "; ASC MHL in \(SafeText.display(generation))" }
        if s.completedCopies > 0 {
            text += "; \(s.completedCopies) missing cop\(s.completedCopies == 1 ? "y" : "ies") made from proven ones"
        }
        if s.deleted > 0 { text += "; \(s.deleted) deleted from the camera" }
        if s.shift != 0 { text += "; capture times shifted by \(ShiftText.format(s.shift))" }
        if s.datesSetAside > 0 {
            text += "; \(s.datesSetAside) with a nonsense date (1970, 1980-01-01, …) placed by the next source"
        }
        return text
    }
}
