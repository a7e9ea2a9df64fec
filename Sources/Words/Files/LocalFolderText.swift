import TextKit

/// A local folder as messages show it. The folder comes absolute (`LocalDisk.absolute`), so that "kept in"
/// says where.
public enum LocalFolderText {
    /// `made the folder /home/me/typo/sub (it was not there)`: a download folder made for a fetch (`folder`,
    /// absolute), said as lftp's mirror says it, since a mistyped `-o` makes a folder nobody meant.
    public static func made(_ folder: String) -> String {
        "made the folder \(SafeText.display(folder)) (it was not there)"
    }
}
