/// A small in-memory camera card for the demo loop: folders, DJI names, and names with spaces and quotes.
final class DemoCatalog: CompletionContext {
    private(set) var currentFolder = "/DCIM/100MEDIA"
    private var cache: [String: NameIndex] = [:]

    private let tree: [String: [CompletionEntry]] = [
        "/": [CompletionEntry("DCIM", isFolder: true), CompletionEntry("MISC", isFolder: true)],
        "/DCIM": [
            CompletionEntry("100MEDIA", isFolder: true), CompletionEntry("101MEDIA", isFolder: true),
            CompletionEntry("Holiday 2024", isFolder: true),
        ],
        "/DCIM/100MEDIA":
            (1...12).map { CompletionEntry("DJI_\(String(repeating: "0", count: 4 - "\($0)".count))\($0).JPG") }
            + [
                CompletionEntry("DJI_0013.MP4"), CompletionEntry("My Photo 1.jpg"), CompletionEntry("My Photo 2.jpg"),
                CompletionEntry("Birthday Party.MP4"), CompletionEntry("it's here.jpg"),
            ],
        "/DCIM/101MEDIA": [CompletionEntry("DJI_0100.JPG"), CompletionEntry("DJI_0101.DNG")],
        "/DCIM/Holiday 2024": [CompletionEntry("Beach [1].jpg"), CompletionEntry("Beach [2].jpg")],
        "/MISC": [CompletionEntry("THM", isFolder: true)],
        "/MISC/THM": [],
    ]

    /// Changes the current folder; false when it does not exist.
    func changeFolder(to path: String) -> Bool {
        let target = resolve(path)
        guard tree[target] != nil else { return false }
        currentFolder = target
        return true
    }

    func remoteEntries(inFolder folder: String) -> NameIndex {
        let path = resolve(folder)
        if let cached = cache[path] { return cached }
        let index = NameIndex(tree[path] ?? [])
        cache[path] = index
        return index
    }

    func settingNames() -> [String] { ["errexit", "overwrite", "progress", "timeout"] }

    /// An absolute, normalised folder path for `path` relative to the current folder.
    private func resolve(_ path: String) -> String {
        var parts = path.hasPrefix("/") ? [] : currentFolder.split(separator: "/").map(String.init)
        for part in path.split(separator: "/") {
            switch part {
            case ".": continue
            case "..": if !parts.isEmpty { parts.removeLast() }
            default: parts.append(String(part))
            }
        }
        return "/" + parts.joined(separator: "/")
    }
}
