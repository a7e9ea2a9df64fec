import MediaManager
import POSIX

/// Files of one fetch that go to one local folder (`fetch -r` makes one per folder of the tree).
public struct FetchGroup: Sendable {
    public let folder: String
    public let files: [MediaFile]

    public init(folder: String, files: [MediaFile]) {
        self.folder = folder
        self.files = files
    }
}

extension FetchGroup {
    /// `fetch -r`'s groups: each folder among `entries`, with everything below it, as a tree under
    /// `destination` (`DCIM` to `destination/DCIM/100MEDIA/DJI_0001.JPG`), as `cp -r` and lftp's `mirror`
    /// do; a file goes straight into `destination`. Folder names come from the device: each is made safe
    /// (`LocalFileName`) before it becomes a local folder. Empty when nothing is below them.
    public static func tree(of entries: [RemoteEntry], into destination: String, catalog: MediaCatalog) -> [FetchGroup] {
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
        return order.map { FetchGroup(folder: $0, files: files[$0] ?? []) }
    }
}
