import MediaManager
import POSIX
import TerminalKit
import Transfers

/// `fetch -r` (and `mirror`): each folder named, with everything below it, as a tree under the destination
/// (`fetch -r -o ~/dl DCIM` writes `~/dl/DCIM/100MEDIA/DJI_0001.JPG`), as `cp -r` and lftp's `mirror` do; a
/// file named goes straight into the destination. Folder names come from the device: each is made safe
/// (`LocalFileName`) before it becomes a local folder.
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
        var order: [String] = []
        var files: [String: [MediaFile]] = [:]
        func add(_ file: MediaFile, to folder: String) {
            if files[folder] == nil { order.append(folder) }
            files[folder, default: []].append(file)
        }
        for entry in entries {
            guard entry.isFolder else {
                if let file = entry.file { add(file, to: destination) }
                continue
            }
            let name = entry.path.split(separator: "/").last.map(String.init)
            let top = name.map { LocalDisk.join(destination, LocalFileName.sanitize($0)) } ?? destination
            for below in FileTree.files(under: entry.path, shownUnder: "", in: catalog) {
                guard let file = below.file else { continue }
                let folders = below.shown.split(separator: "/").dropLast().map { LocalFileName.sanitize(String($0)) }
                add(file, to: folders.reduce(top) { LocalDisk.join($0, $1) })
            }
        }
        guard !order.isEmpty else {
            throw CommandError("no files below \(words.map { "'\(SafeText.display($0.text))'" }.joined(separator: ", "))")
        }
        return order.map { FetchGroup(folder: $0, files: files[$0] ?? []) }
    }
}
