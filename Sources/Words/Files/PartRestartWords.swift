import CameraFacts
import TextKit

/// Why a download started again from byte 0 rather than continue the `.part` an earlier run kept.
public enum PartRestartWords {
    /// `started again from 0: DJI_0006.MP4.part (8.0 MB) was part of another file (its camera differs)`.
    public static func clause(_ why: PartRestart, part: String, kept: UInt64) -> String {
        let part = "\(SafeText.display(part)) (\(HumanReadable.size(kept)))"
        let reason: String =
            switch why {
            case .noRecord: "\(part) has no record of which file it is a part of, so it was not trusted"
            case .otherObject(let differences):
                "\(part) was part of another file (its \(differences.joined(separator: ", ")) differ\(differences.count == 1 ? "s" : ""))"
            case .changedOnDisk: "\(part) changed on disk since it was written"
            case .cameraDiffers: "the camera's file is not the one \(part) was part of (their bytes differ)"
            case .cannotReadRanges: "this camera cannot read part of a file, so \(part) could not be continued"
            }
        return "started again from 0: " + reason
    }
}
