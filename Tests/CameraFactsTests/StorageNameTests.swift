import CameraFacts
import Testing

@Suite struct StorageNameTests {
    func storage(label: String, description: String) -> StorageSummary {
        StorageSummary(id: 0x0001_0001, label: label, description: description, capacity: 0, free: 0, readOnly: false)
    }

    @Test func aPlaceholderLabelGivesWayToTheDescription() {
        for placeholder in ["", "  ", "NO NAME", "Untitled", "UNTITLED", "0000-0000", "1A2B-3C4D", "SD", "0000", "____"] {
            #expect(storage(label: placeholder, description: "SD Card 1").name == "SD Card 1", "\(placeholder)")
        }
    }

    @Test func aRealLabelIsKept() {
        for label in ["EOS_DIGITAL", "Holiday 2024", "DJI", "X-T5"] {
            #expect(storage(label: label, description: "SD Card 1").name == label)
        }
    }

    @Test func withoutADescriptionTheLabelStandsEvenIfAPlaceholder() {
        #expect(storage(label: "NO NAME", description: "").name == "NO NAME")
        #expect(storage(label: "", description: "").name == "")
    }
}
