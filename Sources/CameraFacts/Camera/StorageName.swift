import Foundation

/// The name to show for a storage. Cameras fill in the volume label (the card's FAT label) and a
/// description of the slot ("SD Card 1", "Internal Memory"); many leave the label as formatted ("NO NAME",
/// "UNTITLED", "0000-0000"), which then says nothing, so the description is preferred.
extension StorageSummary {
    /// The label unless it looks like a placeholder, else the description, else the label as it is.
    public var name: String {
        let label = self.label.trimmingCharacters(in: .whitespaces)
        let description = self.description.trimmingCharacters(in: .whitespaces)
        if Self.isPlaceholder(label), !description.isEmpty { return description }
        return label.isEmpty ? description : label
    }

    /// True for labels a camera or a formatter writes when nobody named the card.
    public static func isPlaceholder(_ label: String) -> Bool {
        let text = label.trimmingCharacters(in: .whitespaces).lowercased()
        if text.isEmpty { return true }
        if placeholders.contains(text) { return true }
        // A FAT volume serial ("1A2B-3C4D") or a run of one repeated character ("0000", "____").
        if text.count == 9, text.split(separator: "-").map(\.count) == [4, 4],
            text.allSatisfy({ $0 == "-" || $0.isHexDigit })
        {
            return true
        }
        return Set(text).count == 1
    }

    private static let placeholders: Set<String> = [
        "no name", "noname", "untitled", "unnamed", "unknown", "none", "null", "default", "label", "volume",
        "new volume", "disk", "removable", "removable disk", "removable storage", "storage", "card", "sd",
        "sd card", "sdcard", "memory card",
    ]
}
