import MediaManager
import TerminalKit
import Transfers

/// `fetch -r` (and `mirror`): each folder named, with everything below it, as a tree under the destination
/// (`FetchGroup.tree`); no words: the current folder.
enum FetchTree {
    static func groups(
        _ words: [Word], destination: String, catalog: MediaCatalog, _ shell: any CommandContext
    ) throws -> [FetchGroup] {
        let entries: [RemoteEntry]
        if words.isEmpty {
            let here = shell.state.folder
            entries = [RemoteEntry(path: here, file: catalog.file(atPath: here), isFolder: true, shown: here)]
        } else {
            entries = try shell.names(catalog).entries(for: words)
        }
        let groups = FetchGroup.tree(of: entries, into: destination, catalog: catalog)
        guard !groups.isEmpty else {
            throw CommandError("no files below \(words.map { "'\(SafeText.display($0.text))'" }.joined(separator: ", "))")
        }
        return groups
    }
}
