import CameraFacts
import TextKit

/// What may change the files of a folder opened as a camera: `sim:PATH` serves someone's folder and is
/// read-only unless asked (`--writable`, `set writable on`), as `serve` is; `dir:PATH` is the user's own
/// card, whose files `delete` removes.
public enum FolderAccessWords {
    /// A command refused on a read-only `sim:PATH`: `sim:/srv/card is read-only; open it with --writable (or
    /// 'set writable on', then open it again) to delete from the folder`.
    public static func refusal(_ url: CameraURL, to doing: String) -> String {
        "\(SafeText.display(url.description)) is read-only; open it with --writable (or 'set writable on', then "
            + "open it again) \(doing)"
    }

    /// After `set writable` while a `sim:PATH` is open: `applies when sim:/srv/card is opened again ('open
    /// sim:/srv/card')`.
    public static func appliesAtOpen(_ url: CameraURL) -> String {
        let shown = SafeText.display(url.description)
        return "applies when \(shown) is opened again ('open \(shown)')"
    }

    /// `summary`'s row for a folder opened as a camera (nil for other cameras): its path and which rule applies.
    public static func summaryRow(_ url: CameraURL, readOnly: Bool) -> [String]? {
        switch url {
        case .simulator(let path?):
            let rule =
                readOnly
                ? "read-only: --writable, or 'set writable on' before opening it, lets commands change it"
                : "writable: delete, put, mkdir and capture change its files"
            return ["folder:", "\(path) (\(rule))"]
        case .folder(let path):
            return ["folder:", "\(path) (writable: delete removes its files)"]
        default:
            return nil
        }
    }

    /// What each refused command would have done, for `refusal`.
    public static let deleting = "to delete from the folder"
    public static let uploading = "to upload into the folder"
    public static let makingFolders = "to make folders in it"
    public static let capturing = "to take pictures into the folder"
}
