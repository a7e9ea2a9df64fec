import CommandKit
import Connectors
import MediaManager
import PTP
import TerminalKit
import Words

/// summary: the camera's model, serial number, storages and abilities.
struct SummaryCommand: ShellCommand {
    let spec = CommandSpec(
        "summary", area: .session, summary: "describe the camera and its card",
        details: "Shows the camera's model, serial number, storages and what it can do.")

    func run(_ invocation: Invocation, in shell: any CommandContext) throws -> CommandOutcome {
        let session = try shell.requireCamera()
        let summary = session.camera.summary
        let storages = (try? session.camera.storages()) ?? []
        // A card whose every storage is read-only deletes and takes nothing, whatever DeviceInfo lists.
        let writable = storages.isEmpty || storages.contains { !$0.readOnly }
        var abilities: [String] = []
        if summary.canListInOneRequest { abilities.append("list in one request") }
        if summary.canReadRanges { abilities.append("read ranges (resume, playback)") }
        if summary.hasThumbnails { abilities.append("thumbnails") }
        if summary.canDelete && writable { abilities.append("delete") }
        if summary.canCapture { abilities.append("capture") }
        if summary.canUpload && writable { abilities.append("upload (put, mkdir)") }
        let catalog = session.catalog
        let fileCount = catalog.fileCount
        var rows = [
            ["camera:", [summary.manufacturer, summary.model].filter { !$0.isEmpty }.joined(separator: " ")],
            ["version:", summary.version],
            ["opened as:", session.camera.location],  // the address opened (`usb:001,004` for a bare `usb:`)
        ]
        if !summary.serialNumber.isEmpty { rows.insert(["serial:", summary.serialNumber], at: 2) }
        // A camera on USB: the speed its link runs at (and the camera's own best, when the port holds it back).
        if let link = session.camera.usbLink { rows.append(["usb link:", USBLinkWords.describe(link)]) }
        // A vendor dialect is said; a standard camera's summary stays as it was.
        if summary.dialect != .standard { rows.append(["dialect:", summary.dialect.displayName]) }
        // A Wi-Fi camera pairs with this computer's GUID: the one it was given is said (`set ptpip-guid`).
        if session.url.isWiFi, let identity = shell.wifiIdentityInUse {
            rows.append(["computer:", "GUID \(identity.guidText), named '\(identity.name)'"])
        }
        for storage in storages {
            rows.append([
                "storage:",
                "\(storage.name.isEmpty ? "-" : storage.name): \(HumanReadable.size(storage.capacity)), \(HumanReadable.size(storage.free)) free"
                    + (storage.readOnly ? " (read-only)" : ""),
            ])
        }
        if let unreadable = catalog.unreadable {
            rows.append(["files:", "none readable: the camera named \(unreadable.lost.count) objects and none could be read (see 'state')"])
        } else {
            rows.append(["files:", "\(fileCount) in \(catalog.folderPaths.count) folders (\(catalog.state.rawValue))"])
        }
        rows.append(["can:", abilities.isEmpty ? "nothing beyond downloads" : abilities.joined(separator: ", ")])
        let safe = rows.map { $0.map(SafeText.display) }
        for line in ColumnTable(rows: safe).lines() { shell.output.line(line) }
        return .success
    }
}
