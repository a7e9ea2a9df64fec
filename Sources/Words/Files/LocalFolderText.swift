import POSIX
import TerminalKit

/// A local folder as messages show it: absolute (a relative one from the current folder), so that "kept in"
/// says where.
public enum LocalFolderText {
    public static func shown(_ folder: String) -> String {
        folder.hasPrefix("/") ? folder : folder == "." ? LocalDisk.currentFolder : LocalDisk.join(LocalDisk.currentFolder, folder)
    }

    /// `made the folder /home/me/typo/sub (it was not there)`: a download folder made for a fetch, said as
    /// lftp's mirror says it, since a mistyped `-o` makes a folder nobody meant.
    public static func made(_ folder: String) -> String {
        "made the folder \(SafeText.display(shown(folder))) (it was not there)"
    }
}
