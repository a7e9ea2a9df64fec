import Foundation
import MediaManager

/// help, open, close, devices, summary, set, history, source, lcd, lpwd.
extension Interpreter {
    func help(_ invocation: Invocation) throws {
        if let name = invocation.arguments.first {
            output.line(try table.help(forName: name.text))
        } else {
            output.line(table.helpOverview())
        }
    }

    func openCommand(_ invocation: Invocation) throws {
        guard let text = invocation.arguments.first?.text else { return }
        let url = try CameraURL(parsing: text)
        do {
            try open(url)
        } catch {
            throw CommandError("cannot open \(SafeText.display(url.description)): \(Self.message(for: error))")
        }
        if let media { output.line(Self.openedLine(media)) }
    }

    /// `opened sim: (Virtual Camera, 10 files)`.
    static func openedLine(_ media: MediaSession) -> String {
        let summary = media.camera.summary
        let count = media.catalog.allFiles().count
        let model = [summary.manufacturer, summary.model].filter { !$0.isEmpty }.joined(separator: " ")
        return "opened \(SafeText.display(media.url.description)) (\(SafeText.display(model)), "
            + "\(count) file\(count == 1 ? "" : "s"))"
    }

    func closeCommand() throws {
        guard let media else { throw CommandError("no camera is open") }
        let url = media.url
        closeCamera()
        output.line("closed \(SafeText.display(url.description))")
    }

    func devices() {
        let cameras = DeviceDiscovery.usbCameras()
        guard !cameras.isEmpty else {
            output.line("no USB cameras found")
            return
        }
        let rows = cameras.map { [SafeText.display($0.url), SafeText.display($0.description)] }
        for line in ColumnTable(rows: rows).lines() { output.line(line) }
    }

    func summary() throws {
        let session = try requireCamera()
        let summary = session.camera.summary
        var abilities: [String] = []
        if summary.canListInOneRequest { abilities.append("list in one request") }
        if summary.canReadRanges { abilities.append("read ranges (resume, playback)") }
        if summary.hasThumbnails { abilities.append("thumbnails") }
        if summary.canDelete { abilities.append("delete") }
        if summary.canCapture { abilities.append("capture") }
        if summary.canUpload { abilities.append("upload (put, mkdir)") }
        let storages = (try? session.camera.storages()) ?? []
        let catalog = session.catalog
        let fileCount = catalog.allFiles().count
        var rows = [
            ["camera:", [summary.manufacturer, summary.model].filter { !$0.isEmpty }.joined(separator: " ")],
            ["version:", summary.version],
            ["opened as:", session.url.description],
        ]
        if !summary.serialNumber.isEmpty { rows.insert(["serial:", summary.serialNumber], at: 2) }
        for storage in storages {
            let name = storage.label.isEmpty ? storage.description : storage.label
            rows.append([
                "storage:",
                "\(name): \(HumanReadable.size(storage.capacity)), \(HumanReadable.size(storage.free)) free"
                    + (storage.readOnly ? " (read-only)" : ""),
            ])
        }
        rows.append(["files:", "\(fileCount) in \(catalog.folderPaths.count) folders (\(catalog.state.rawValue))"])
        rows.append(["can:", abilities.isEmpty ? "nothing beyond downloads" : abilities.joined(separator: ", ")])
        let safe = rows.map { $0.map(SafeText.display) }
        for line in ColumnTable(rows: safe).lines() { output.line(line) }
    }

    func setCommand(_ invocation: Invocation) throws {
        let arguments = invocation.arguments
        guard let name = arguments.first?.text else {
            let rows = Settings.names.map { [$0, (try? state.settings.value(of: $0)) ?? ""] }
            for line in ColumnTable(rows: rows.map { $0.map(SafeText.display) }).lines() { output.line(line) }
            return
        }
        guard arguments.count > 1 else {
            output.line("\(name) \(SafeText.display(try state.settings.value(of: name)))")
            return
        }
        var settings = state.settings
        try settings.set(name, to: arguments[1].text)
        if name == "download-dir" {
            let folder = LocalDisk.expandingTilde(settings.downloadFolder)
            if LocalDisk.exists(folder) && !LocalDisk.isFolder(folder) {
                throw CommandError("\(SafeText.display(folder)) is not a folder")
            }
        }
        state.settings = settings
    }

    func history() {
        let entries = historyProvider?() ?? []
        let width = String(entries.count).count
        for (index, entry) in entries.enumerated() {
            let number = String(index + 1)
            output.line(String(repeating: " ", count: width - number.count) + number + "  " + SafeText.display(entry))
        }
    }

    func source(_ invocation: Invocation) throws {
        guard let path = invocation.arguments.first?.text else { return }
        guard locations.count < Self.maximumScriptDepth else {
            throw CommandError("scripts nested more than \(Self.maximumScriptDepth) deep (does one source itself?)")
        }
        let expanded = LocalDisk.expandingTilde(path)
        guard !LocalDisk.isFolder(expanded) else { throw CommandError("\(SafeText.display(path)) is a folder") }
        let reader: PlainLineReader
        do {
            reader = try PlainLineReader(path: expanded, interrupt: interrupt as? Interrupt)
        } catch {
            throw CommandError("cannot read \(SafeText.display(path)): \(String(cString: strerror(error.errno)))")
        }
        switch runScript(reader, name: path) {
        case .finished(let failed): if failed { throw FailureReported() }
        case .stopped: throw FailureReported()
        case .interrupted: throw CommandInterrupted()
        case .quit(let failed):
            quitRequested = true
            if failed { throw FailureReported() }
        }
    }

    func lcd(_ invocation: Invocation) throws {
        let target = LocalDisk.expandingTilde(invocation.arguments.first?.text ?? "~")
        guard LocalDisk.isFolder(target) else {
            throw CommandError("no such folder: \(SafeText.display(target))")
        }
        guard FileManager.default.changeCurrentDirectoryPath(target) else {
            throw CommandError("cannot go to \(SafeText.display(target))")
        }
    }

    func lpwd() {
        let here = LocalDisk.currentFolder
        output.line(SafeText.display(here))
        let downloads = downloadFolder(nil)
        if downloads != "." {
            let absolute = downloads.hasPrefix("/") ? downloads : LocalDisk.join(here, downloads)
            output.line("downloads go to \(SafeText.display(absolute)) (set download-dir)")
        }
    }
}
