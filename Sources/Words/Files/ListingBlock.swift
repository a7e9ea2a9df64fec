import CameraFacts
import TextKit

/// One part of an `ls` listing: the entries to show, under a `NAME:` heading when it is the contents of a
/// folder among several operands, as a POSIX shell's `ls DCIM/*` shows each folder the glob matched.
public struct ListingBlock {
    /// The folder's name as matched (`DCIM/100MEDIA`), or nil for the files named directly.
    public var heading: String?
    public var entries: [RemoteEntry]

    public init(heading: String?, entries: [RemoteEntry]) {
        self.heading = heading
        self.entries = entries
    }

    /// What the words name (`named`: the entries one word names on the card, a literal name or a glob's matches, or why
    /// none; `listing`: a folder's records, as the catalog holds them, nil for no folder). A folder named outright
    /// lists its contents (its names prefixed with the folder's when there are several words); a glob lists the files
    /// it matched first, then each folder it matched in a block of its own. Without `expandingGlobbedFolders` (`ls -d`)
    /// folders are listed as names. Hidden folders a glob matched are left out unless `showingAll`. With a single
    /// operand (a glob that matched one folder), its block has no heading, as in a POSIX shell.
    public static func blocks(
        _ words: [Word], contentsOf listing: (String) -> [MediaFile]?, named: (Word) throws -> [RemoteEntry],
        folder: String, expandingGlobbedFolders: Bool, showingAll: Bool
    ) throws -> [ListingBlock] {
        guard !words.isEmpty else { return [ListingBlock(heading: nil, entries: contents(of: folder, shownUnder: "", in: listing))] }
        let single = words.count == 1
        var direct: [RemoteEntry] = []
        var folders: [RemoteEntry] = []
        var operands = 0
        for word in words {
            for entry in try named(word) {
                operands += 1
                if entry.isFolder && !word.isGlob && expandingGlobbedFolders {
                    let prefix = single ? "" : (entry.shown.hasSuffix("/") ? entry.shown : entry.shown + "/")
                    let listed = contents(of: entry.path, shownUnder: prefix, in: listing)
                    if direct.isEmpty { direct = listed } else { direct += listed }  // `ls FOLDER`: no copy
                } else if entry.isFolder && expandingGlobbedFolders {
                    if showingAll || !entry.isHidden { folders.append(entry) } else { operands -= 1 }
                } else {
                    direct.append(entry)
                }
            }
        }
        if operands == 1, let only = folders.first {
            return [ListingBlock(heading: nil, entries: contents(of: only.path, shownUnder: "", in: listing))]
        }
        let headed = folders.map { folder in
            let name = folder.shown.hasSuffix("/") && folder.shown.count > 1 ? String(folder.shown.dropLast()) : folder.shown
            return ListingBlock(heading: name, entries: contents(of: folder.path, shownUnder: "", in: listing))
        }
        return (direct.isEmpty && !headed.isEmpty ? [] : [ListingBlock(heading: nil, entries: direct)]) + headed
    }

    /// The blocks as one list, each folder's names prefixed with its heading (for --json and --thumbs).
    public static func flattened(_ blocks: [ListingBlock]) -> ListingBlock {
        ListingBlock(heading: nil, entries: blocks.flatMap { block -> [RemoteEntry] in
            guard let heading = block.heading else { return block.entries }
            return block.entries.map { entry in
                RemoteEntry(path: entry.path, file: entry.file, isFolder: entry.isFolder, shown: heading + "/" + entry.shown)
            }
        })
    }

    /// The folder's records as entries. A record is a folder exactly when the catalog holds a folder at its
    /// path (`listing`, as `MediaCatalog.contents(of:)`), so no lookup per file is needed.
    private static func contents(
        of path: String, shownUnder prefix: String, in listing: (String) -> [MediaFile]?
    ) -> [RemoteEntry] {
        (listing(path) ?? []).map { file in
            RemoteEntry(
                path: RemotePath.child(file.name, of: path), file: file, isFolder: file.isFolder,
                shown: prefix.isEmpty ? file.name : prefix + file.name)
        }
    }
}
