import CameraFacts
import PTPFacts
import TextKit

/// What `summary` says of the open camera and its card.
public enum SummaryWords {
    /// The camera's model, version, address, serial number, USB link, dialect, the GUID this computer gave a
    /// Wi-Fi camera (`identity`: its GUID as 32 hex digits, and its name), its storages, its files and what it
    /// can do, as aligned lines.
    public static func lines(
        _ summary: CameraSummary, url: CameraURL, usbLink: USBLink?, catalog: CatalogStatus, storages: [StorageSummary],
        identity: (guid: String, name: String)?
    ) -> [String] {
        // A card whose every storage is read-only deletes and takes nothing, whatever DeviceInfo lists.
        let writable = storages.isEmpty || storages.contains { !$0.readOnly }
        var abilities: [String] = []
        if summary.canListInOneRequest { abilities.append("list in one request") }
        if summary.canReadRanges { abilities.append("read ranges (resume, playback)") }
        if summary.hasThumbnails { abilities.append("thumbnails") }
        if summary.canDelete && writable { abilities.append("delete") }
        if summary.canCapture { abilities.append("capture") }
        if summary.canUpload && writable { abilities.append("upload (put, mkdir)") }
        let fileCount = catalog.fileCount
        var rows = [
            ["camera:", [summary.manufacturer, summary.model].filter { !$0.isEmpty }.joined(separator: " ")],
            ["opened as:", summary.location],  // the address opened (`usb:001,004` for a bare `usb:`)
        ]
        // What the device did not say (a card folder has no firmware) is left out, never shown empty.
        if !summary.serialNumber.isEmpty { rows.insert(["serial:", summary.serialNumber], at: 1) }
        if !summary.version.isEmpty { rows.insert(["version:", summary.version], at: 1) }
        // A folder opened as a camera: whether commands may change its files.
        if let row = FolderAccessWords.summaryRow(url, readOnly: !writable) { rows.append(row) }
        // A camera on USB: the speed its link runs at (and the camera's own best, when the port holds it back).
        if let link = usbLink { rows.append(["usb link:", USBLinkWords.describe(link)]) }
        // A vendor dialect is said; a standard camera's summary stays as it was.
        if summary.dialect != .standard { rows.append(["dialect:", summary.dialect.displayName]) }
        // A Wi-Fi camera pairs with this computer's GUID: the one it was given is said (`set ptpip-guid`).
        if let identity {
            rows.append(["computer:", "GUID \(identity.guid), named '\(identity.name)'"])
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
            rows.append(["files:", "\(fileCount) in \(catalog.folderCount) folders (\(catalog.state.rawValue))"])
        }
        rows.append(["can:", abilities.isEmpty ? "nothing beyond downloads" : abilities.joined(separator: ", ")])
        let safe = rows.map { $0.map(SafeText.display) }
        return ColumnTable(rows: safe).lines()
    }
}
