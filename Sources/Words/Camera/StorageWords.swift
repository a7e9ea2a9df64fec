import CameraFacts
import TextKit

/// What `storages` says of the camera's stores.
public enum StorageWords {
    /// A table with a row per store: its id, name, size, free space, access, label and description.
    public static func table(_ storages: [StorageSummary]) -> [String] {
        // NAME is what the shell calls it (the description when the label is a placeholder); both follow.
        var rows = [["ID", "NAME", "SIZE", "FREE", "ACCESS", "LABEL", "DESCRIPTION"]]
        func shown(_ text: String) -> String { text.isEmpty ? "-" : SafeText.display(text) }
        for storage in storages {
            rows.append([
                Self.hex(storage.id), shown(storage.name),
                HumanReadable.size(storage.capacity), HumanReadable.size(storage.free),
                storage.readOnly ? "read-only" : "read-write", shown(storage.label), shown(storage.description),
            ])
        }
        return ColumnTable(rows: rows, alignments: [.left, .left, .right, .right]).lines()
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, 8 - digits.count)) + digits
    }
}
