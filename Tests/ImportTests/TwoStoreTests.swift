import Foundation
import MediaManager
import Testing
import VirtualCamera
@testable import Import

/// A camera with two card slots (two stores, each with its DCIM tree), and one without a serial number.
@Suite struct TwoStoreTests {
    let taken = Date(timeIntervalSince1970: 1_717_243_200)

    func twoSlotCard() -> Card {
        let card = Card(inMemoryLabel: "SLOT 1")
        card.add(name: "A_0001.JPG", in: "DCIM/100CANON", content: .bytes(patternedBytes(3000, seed: 1)), modified: taken)
        card.add(name: "A_0002.MP4", in: "DCIM/100CANON", content: .bytes(patternedBytes(9000, seed: 2)), modified: taken)
        card.add(name: "A_0002.THM", in: "DCIM/100CANON", content: .bytes(patternedBytes(100, seed: 3)), modified: taken)
        let second = card.addStorage(description: "SD card 2", volumeLabel: "SLOT 2")
        card.add(name: "B_0001.CR3", in: "DCIM/100CANON", content: .bytes(patternedBytes(5000, seed: 4)), modified: taken, storage: second)
        card.add(name: "B_0002.JPG", in: "DCIM/101CANON", content: .bytes(patternedBytes(4000, seed: 5)), modified: taken, storage: second)
        card.add(name: "NOTES.TXT", in: "MISC", content: .bytes([1]), modified: taken, storage: second)
        return card
    }

    func run(_ session: MediaSession, to folder: String, ledgers: String) throws -> BatchSummary {
        try session.catalog.ensureLoaded()
        let l = try Importer.ledgers(for: session, folder: ledgers)
        let groups = CardSelection.groups(for: CardSelection.dcimFiles(in: session.catalog), in: session.catalog)
        let plan = Importer.plan(groups, session: session, options: ImportOptions(pattern: try DestinationPattern(folder + "/%Y/%m-%d")), ledgers: l)
        return try ImportRun(session: session, plan: plan, ledgers: l).run()
    }

    @Test func everyStoreEveryDCIMFolder() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let session = try openInProcess(twoSlotCard())
        defer { session.close() }
        try session.catalog.ensureLoaded()
        #expect(try session.camera.storages().count == 2)
        let first = try run(session, to: root + "/out", ledgers: root + "/ledgers")
        #expect(first.fetched == 5)
        let day = DateFormatter.dayFolder(taken)
        let names = try FileManager.default.contentsOfDirectory(atPath: root + "/out/" + day).sorted()
        #expect(names == ["A_0001.JPG", "A_0002.MP4", "A_0002.THM", "B_0001.CR3", "B_0002.JPG"])
        #expect(try run(session, to: root + "/out", ledgers: root + "/ledgers").fetched == 0)
        // One ledger for the camera: it has a serial number.
        #expect(try FileManager.default.contentsOfDirectory(atPath: root + "/ledgers").filter { $0.hasSuffix(".json") }.count == 1)
    }

    @Test func aCameraWithoutASerialNumberKeepsALedgerPerCard() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        var identity = VirtualCamera.Identity()
        identity.serialNumber = ""
        identity.model = "Blank R1"
        let session = try openInProcess(twoSlotCard(), identity: identity)
        defer { session.close() }
        #expect(try run(session, to: root + "/out", ledgers: root + "/ledgers").fetched == 5)
        let ledgers = try FileManager.default.contentsOfDirectory(atPath: root + "/ledgers").filter { $0.hasSuffix(".json") }.sorted()
        #expect(ledgers.count == 2)
        #expect(ledgers.allSatisfy { $0.contains("Blank_R1_store_SLOT_") })
        #expect(try run(session, to: root + "/out", ledgers: root + "/ledgers").skipped == 5)
    }
}

extension DateFormatter {
    /// "2024/06-01" in the local time zone, as the pattern `%Y/%m-%d` writes it.
    static func dayFolder(_ date: Date) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.dateFormat = "yyyy/MM-dd"
        return f.string(from: date)
    }
}
