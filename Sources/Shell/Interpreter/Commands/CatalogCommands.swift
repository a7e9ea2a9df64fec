import MediaManager

/// storages, ls, cd, pwd, refresh, state.
extension Interpreter {
    func storages() throws {
        let session = try requireCamera()
        let storages = try session.camera.storages()
        guard !storages.isEmpty else {
            output.line("no storage (is a card in the camera?)")
            return
        }
        var rows = [["ID", "NAME", "SIZE", "FREE", ""]]
        for storage in storages {
            let name = storage.label.isEmpty ? storage.description : storage.label
            rows.append([
                hex(storage.id), SafeText.display(name.isEmpty ? "-" : name), HumanReadable.size(storage.capacity),
                HumanReadable.size(storage.free), storage.readOnly ? "read-only" : "",
            ])
        }
        for line in ColumnTable(rows: rows, alignments: [.left, .left, .right, .right]).lines() { output.line(line) }
    }

    private func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, 8 - digits.count)) + digits
    }

    func list(_ invocation: Invocation) throws {
        if invocation.has(.thumbs) && invocation.has(.json) {
            throw CommandError("--thumbs draws pictures and --json writes data: use one of them")
        }
        let catalog = try loadedCatalog()
        let names = names(catalog)
        var entries: [RemoteEntry] = []
        if invocation.arguments.isEmpty {
            entries = contents(of: state.folder, shownUnder: "", in: catalog)
        } else {
            let single = invocation.arguments.count == 1
            for word in invocation.arguments {
                for entry in try names.entries(for: word) {
                    if entry.isFolder && !word.isGlob {
                        let prefix = single ? "" : (entry.shown.hasSuffix("/") ? entry.shown : entry.shown + "/")
                        entries += contents(of: entry.path, shownUnder: prefix, in: catalog)
                    } else {
                        entries.append(entry)
                    }
                }
            }
        }
        var order = FileListing.Order()
        order.byTime = invocation.has(.byTime)
        order.bySize = invocation.has(.bySize)
        order.reversed = invocation.has(.reverse)
        entries = FileListing.sorted(entries, order)
        let listing = FileListing(dates: dates)
        if invocation.has(.thumbs) {
            try contactSheet(of: entries)
        } else if invocation.has(.json) {
            output.line(listing.json(entries))
        } else if invocation.has(.long) {
            for line in listing.long(entries) { output.line(line) }
        } else {
            for line in listing.short(entries, columns: output.terminalColumns) { output.line(line) }
        }
    }

    private func contents(of path: String, shownUnder prefix: String, in catalog: MediaCatalog) -> [RemoteEntry] {
        (catalog.contents(of: path) ?? []).map { file in
            let child = RemotePath.child(file.name, of: path)
            return RemoteEntry(
                path: child, file: file, isFolder: file.isFolder || catalog.isFolder(child), shown: prefix + file.name)
        }
    }

    func changeFolder(_ invocation: Invocation) throws {
        let catalog = try loadedCatalog()
        guard let word = invocation.arguments.first else {
            state.changeFolder(to: "")
            return
        }
        let entries = try names(catalog).entries(for: word)
        let folders = entries.filter(\.isFolder)
        guard folders.count == 1, let target = folders.first else {
            if folders.isEmpty { throw CommandError("not a folder: \(SafeText.display(word.text))") }
            throw CommandError("'\(SafeText.display(word.text))' matches \(folders.count) folders; cd goes to one")
        }
        state.changeFolder(to: target.path)
    }

    func printFolder() throws {
        _ = try requireCamera()
        output.line(RemotePath.display(state.folder))
    }

    func refresh() throws {
        let session = try requireCamera()
        try session.catalog.reload()
        let catalog = session.catalog
        state.catalogReloaded(lookup: { catalog.file(atPath: $0) }, folderExists: { catalog.isFolder($0) })
        output.line(describeCatalog(catalog))
    }

    func catalogState() throws {
        let session = try requireCamera()
        output.line(describeCatalog(session.catalog))
    }

    /// `up-to-date: 10 files in 3 folders`, with what the state means when it is not plain.
    private func describeCatalog(_ catalog: MediaCatalog) -> String {
        let files = catalog.allFiles().count
        let folders = catalog.folderPaths.count
        let counts = "\(files) file\(files == 1 ? "" : "s") in \(folders) folder\(folders == 1 ? "" : "s")"
        switch catalog.state {
        case .upToDate: return "up-to-date: \(counts)"
        case .incomplete:
            return "incomplete: \(counts); the camera reported changes or a folder could not be read "
                + "('refresh' reads it all again)"
        case .syncing: return "syncing: reading the file list"
        case .deleting: return "deleting: \(counts)"
        case .reset: return "reset: the file list will be read again at the next command that needs it"
        }
    }
}
