import Foundation
import MediaManager
import TestSupport
import Testing
import VirtualCamera

@testable import Shell

/// `import` through the interpreter on the virtual camera (what `sim:` runs) with two card slots: every
/// DCIM file of both stores once, sorted by day; nothing on the second run; exactly a new file, on either
/// store, after it appears on the card.
@Suite struct ImportTwoSlotTests {
    static let taken = Date(timeIntervalSince1970: 1_717_243_200)  // 2024-06-01 12:00 UTC
    static let later = Date(timeIntervalSince1970: 1_717_329_600)  // 2024-06-02 12:00 UTC

    let card = Card(inMemoryLabel: "NO NAME")
    let secondSlot: UInt32
    let home: TemporaryFolder
    let interpreter: Interpreter
    let output: CapturedOutput

    init() throws {
        card.add(name: "A_0001.JPG", in: "DCIM/100CANON", content: .bytes(patternBytes(3000, seed: 1)), modified: Self.taken)
        card.add(name: "A_0002.MP4", in: "DCIM/100CANON", content: .bytes(patternBytes(9000, seed: 2)), modified: Self.taken)
        card.add(name: "A_0002.THM", in: "DCIM/100CANON", content: .bytes(patternBytes(100, seed: 3)), modified: Self.taken)
        secondSlot = card.addStorage(description: "SD card 2", volumeLabel: "BACKUP")
        // The same names as on the first slot, as two cards in one camera often have.
        card.add(name: "A_0001.JPG", in: "DCIM/100CANON", content: .bytes(patternBytes(3000, seed: 4)), modified: Self.taken, storage: secondSlot)
        card.add(name: "B_0001.CR3", in: "DCIM/101CANON", content: .bytes(patternBytes(5000, seed: 5)), modified: Self.later, storage: secondSlot)
        card.add(name: "NOTES.TXT", in: "MISC", content: .bytes([1]), modified: Self.taken, storage: secondSlot)
        home = try TemporaryFolder("msh-import-2slot")
        (interpreter, output, _) = makeInterpreter()
        interpreter.environment["XDG_DATA_HOME"] = home.path + "/data"
        let (session, _) = try probedSession(card: card)
        interpreter.attach(session)
    }

    var pictures: String { home.path + "/Pictures" }

    func run(_ line: String) -> LineStatus {
        output.standardOutput = ""
        output.errors = []
        return interpreter.run(line: line)
    }

    func localFiles() -> [String] {
        (FileManager.default.subpaths(atPath: pictures) ?? []).filter {
            var isDir: ObjCBool = false
            return FileManager.default.fileExists(atPath: pictures + "/" + $0, isDirectory: &isDir) && !isDir.boolValue
                && !isImportManifest($0)
        }.sorted()
    }

    static func day(_ date: Date) -> String {
        let format = DateFormatter()
        format.dateFormat = "yyyy/MM-dd"
        return format.string(from: date)
    }

    @Test func bothSlotsOnceThenNothingThenExactlyTheNewFile() throws {
        #expect(run("storages") == .success)
        #expect(output.lines.count == 3, "two stores: \(output.lines)")
        #expect(output.lines[1].contains("SD card") && output.lines[1].contains("NO NAME"), "\(output.lines)")
        #expect(output.lines[2].contains("BACKUP") && output.lines[2].contains("SD card 2"), "\(output.lines)")

        let to = "import --to \(pictures)/%Y/%m-%d"
        #expect(run(to) == .success, "\(output.errors)")
        let first = Self.day(Self.taken)
        #expect(localFiles() == [
            "\(first)/A_0001 (2).JPG", "\(first)/A_0001.JPG", "\(first)/A_0002.MP4", "\(first)/A_0002.THM",
            "\(Self.day(Self.later))/B_0001.CR3",
        ])
        #expect(output.lines.last?.hasPrefix("import: 5 fetched, 0 skipped (already imported), 1 renamed, 0 failed;") == true,
            "\(output.lines)")
        // Each slot's A_0001.JPG arrived with its own bytes.
        let copies = try ["A_0001.JPG", "A_0001 (2).JPG"].map { try Data(contentsOf: URL(fileURLWithPath: "\(pictures)/\(first)/\($0)")) }
        #expect(Set(copies) == [Data(patternBytes(3000, seed: 1)), Data(patternBytes(3000, seed: 4))])

        #expect(run(to) == .success)
        #expect(output.lines == [output.lines.last ?? ""], "only the summary: \(output.lines)")
        #expect(output.lines.last?.hasPrefix("import: 0 fetched, 5 skipped (already imported)") == true, "\(output.lines)")

        // A new file on the second slot: exactly that one comes.
        card.add(name: "B_0002.JPG", in: "DCIM/101CANON", content: .bytes(patternBytes(4000, seed: 6)), modified: Self.later, storage: secondSlot)
        let before = Set(localFiles())
        #expect(run(to) == .success, "\(output.errors)")
        #expect(Set(localFiles()).subtracting(before) == ["\(Self.day(Self.later))/B_0002.JPG"])
        #expect(output.lines.last?.hasPrefix("import: 1 fetched, 5 skipped (already imported)") == true, "\(output.lines)")
    }
}
