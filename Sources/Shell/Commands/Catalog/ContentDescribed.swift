import MediaManager

/// `ls -l` and `ls --json` entries with what the files' own bytes say where the camera's listing says
/// nothing (a kind for format 0x3000, a video's duration and size for dimensions reported as 0): read
/// lazily for the entries shown, within `ContentCheck`'s budget, cached for the session.
enum ContentDescribed {
    static func entries(_ entries: [RemoteEntry], shell: any CommandContext) -> [RemoteEntry] {
        guard let session = shell.media else { return entries }
        let files = entries.compactMap(\.file)
        guard !files.isEmpty else { return entries }
        var described = session.contentCheck.described(files, session: session).makeIterator()
        return entries.map { entry in
            guard entry.file != nil, let file = described.next() else { return entry }
            return RemoteEntry(path: entry.path, file: file, isFolder: entry.isFolder, shown: entry.shown)
        }
    }
}
