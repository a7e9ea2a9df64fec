import Foundation
import MediaManager
import TestSupport
import Testing

@testable import Shell

/// `verify --repair` in the interpreter over a `dir:` card: a copy that fails is replaced from another copy
/// proven now, else from the open camera when its file still gives the recorded checksum; the bad bytes are
/// kept aside, the ledger and a log beside the manifests say so, the manifests still pass `xxhsum -c
/// --strict`, and a plain `verify` afterwards finds every copy as recorded. What cannot be repaired is said,
/// with why, and fails the command.
@Suite(.tags(.process), .notInFastRun) struct VerifyRepairCommandTests {
    let card: TemporaryFolder
    let home: TemporaryFolder
    let interpreter: Interpreter
    let output: CapturedOutput

    init() throws {
        card = try makeCardFolder(bigFileSize: 100_000)
        home = try TemporaryFolder("msh-repair")
        try FileManager.default.createDirectory(atPath: home.path + "/Backup", withIntermediateDirectories: true)
        (interpreter, output, _) = makeInterpreter()
        interpreter.environment["XDG_DATA_HOME"] = home.path + "/data"
        try interpreter.open(.folder(path: card.path))
    }

    var pictures: String { home.path + "/Pictures" }
    var backup: String { home.path + "/Backup" }

    func run(_ line: String) -> LineStatus {
        output.reset()
        return interpreter.run(line: line)
    }

    /// Flips one byte of the file at `path` (its size and time kept); returns the bytes it had.
    @discardableResult
    func flipByte(_ path: String, at offset: Int = 777) throws -> [UInt8] {
        let url = URL(fileURLWithPath: path)
        let time = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
        var bytes = [UInt8](try Data(contentsOf: url))
        let original = bytes
        bytes[offset] ^= 0x20
        try Data(bytes).write(to: url)
        if let time { try FileManager.default.setAttributes([.modificationDate: time], ofItemAtPath: path) }
        return original
    }

    func bytes(_ path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }

    /// The ledger's entries as JSON objects, from its file (as another program would read it).
    func ledgerEntries() throws -> [[String: Any]] {
        let folder = home.path + "/data/mediashell/imports"
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".json") }
        try #require(names.count == 1, "\(names)")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/" + names[0])))
        return try #require((json as? [String: Any])?["entries"] as? [[String: Any]])
    }

    func entry(_ name: String) throws -> [String: Any] {
        try #require(try ledgerEntries().first { $0["name"] as? String == name })
    }

    /// `xxhsum -c --strict` of every import manifest at `root`, from there.
    func manifestsPassStrictCheck(_ root: String) throws {
        guard let xxhsum = ExternalTool.find("xxhsum") else { return }
        let manifests = try FileManager.default.contentsOfDirectory(atPath: root).filter(isImportManifest)
        #expect(!manifests.isEmpty)
        for manifest in manifests {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: xxhsum.executable)
            process.arguments = ["-c", "--strict", manifest]
            process.currentDirectoryURL = URL(fileURLWithPath: root)
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = pipe
            try process.run()
            let said = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(root)/\(manifest): \(said)")
        }
    }

    /// The lines of the repairs log at `root`.
    func repairLog(_ root: String) -> [String] {
        let text = (try? String(contentsOfFile: root + "/mediashell-repairs.log", encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init)
    }

    @Test func aChangedFirstCopyAndADeletedBackupAreRepairedFromEachOther() throws {
        #expect(run("import --to \(pictures)/%f --backup \(backup)") == .success, "\(output.errors)")
        let photo = pictures + "/DJI_0001.JPG"
        let good = try flipByte(photo)
        let flipped = try bytes(photo)
        let gone = backup + "/IMG_0100.JPG"
        try FileManager.default.removeItem(atPath: gone)
        #expect(run("verify") == .failure)

        #expect(run("verify --repair") == .success, "\(output.errors)")
        #expect(output.lines.contains("repaired \(photo) from \(backup)/DJI_0001.JPG (its checksum proven); the bad copy is kept as \(photo).verify-failed"), "\(output.lines)")
        #expect(output.lines.contains("repaired \(gone) from \(pictures)/IMG_0100.JPG (its checksum proven)"), "\(output.lines)")
        #expect(output.lines.last?.hasSuffix("; 1 changed, 1 missing; 2 repaired") == true, "\(output.lines)")
        #expect(!output.errors.contains { $0.hasPrefix("error:") }, "what was found is a warning once repaired: \(output.errors)")
        #expect(output.errors.count == 2 && output.errors.allSatisfy { $0.hasPrefix("warning: verify: ") }, "\(output.errors)")

        // The good bytes under the copy's name, the bad ones kept aside; nothing half-written left.
        #expect(try bytes(photo) == good && bytes(photo) == card.read("DCIM/100MEDIA/DJI_0001.JPG"))
        #expect(try bytes(photo + ".verify-failed") == flipped)
        #expect(try bytes(gone) == card.read("DCIM/101MEDIA/IMG_0100.JPG"))
        #expect(!FileManager.default.fileExists(atPath: photo + ".part") && !FileManager.default.fileExists(atPath: gone + ".part"))

        #expect(run("verify") == .success, "\(output.errors)")
        #expect(output.lines.last?.hasSuffix("; all as recorded") == true, "\(output.lines)")

        // The ledger records each repair; the manifests still pass the strict check; a log beside them says it.
        let repairs = try #require(try entry("DJI_0001.JPG")["repairs"] as? [[String: Any]])
        #expect(repairs.count == 1)
        #expect(repairs.first?["path"] as? String == photo && repairs.first?["from"] as? String == backup + "/DJI_0001.JPG")
        #expect(repairs.first?["kept"] as? String == photo + ".verify-failed" && repairs.first?["at"] is Int)
        let remade = try #require(try entry("IMG_0100.JPG")["repairs"] as? [[String: Any]])
        #expect(remade.first?["path"] as? String == gone && remade.first?["kept"] == nil)
        #expect(try entry("DJI_0002.JPG")["repairs"] == nil, "an entry not repaired has no such field")
        try manifestsPassStrictCheck(pictures)
        try manifestsPassStrictCheck(backup)
        let log = repairLog(pictures)
        #expect(log.count == 1 && log.first?.contains("\tDJI_0001.JPG\t\(backup)/DJI_0001.JPG\txxh128:") == true, "\(log)")
        #expect(log.first?.hasSuffix("\tDJI_0001.JPG.verify-failed") == true, "\(log)")
        #expect(repairLog(backup).count == 1 && repairLog(backup).first?.contains("\tIMG_0100.JPG\t\(pictures)/IMG_0100.JPG\t") == true)
    }

    @Test func aCopyIsRepairedFromTheOpenCameraWhenNoOtherCopyIsProven() throws {
        #expect(run("import --to \(pictures)/%f --backup \(backup)") == .success, "\(output.errors)")
        let photo = pictures + "/DJI_0002.JPG"
        let flipped = try flipByte(photo).enumerated().map { $0.offset == 777 ? $0.element ^ 0x20 : $0.element }
        let gone = backup + "/DJI_0002.JPG"
        try FileManager.default.removeItem(atPath: gone)

        // The first copy from the camera (its other copy is gone), then the backup from the first, proven.
        #expect(run("verify --repair") == .success, "\(output.errors)")
        #expect(output.lines.filter { $0.hasPrefix("repaired ") } == [
            "repaired \(photo) from the camera (DCIM/100MEDIA/DJI_0002.JPG: its checksum proven); the bad copy is kept as \(photo).verify-failed",
            "repaired \(gone) from \(photo) (its checksum proven)",
        ], "\(output.lines)")
        #expect(output.lines.last?.hasSuffix("; 1 changed, 1 missing; 2 repaired") == true, "\(output.lines)")
        #expect(try bytes(photo) == card.read("DCIM/100MEDIA/DJI_0002.JPG") && bytes(gone) == bytes(photo))
        #expect(try bytes(photo + ".verify-failed") == flipped)
        #expect(!FileManager.default.fileExists(atPath: photo + ".part"))
        let repairs = try #require(try entry("DJI_0002.JPG")["repairs"] as? [[String: Any]])
        #expect(repairs.map { $0["from"] as? String } == ["camera:DCIM/100MEDIA/DJI_0002.JPG", photo], "\(repairs)")
        #expect(repairLog(pictures).first?.contains("\tcamera:DCIM/100MEDIA/DJI_0002.JPG\t") == true, "\(repairLog(pictures))")
        try manifestsPassStrictCheck(pictures)
        try manifestsPassStrictCheck(backup)

        #expect(run("verify") == .success && output.lines.last?.hasSuffix("; all as recorded") == true, "\(output.lines)")
    }

    @Test func aCameraFileThatGivesAnotherChecksumReplacesNothing() throws {
        #expect(run("import --to \(pictures)/%f") == .success, "\(output.errors)")
        let photo = pictures + "/DJI_0002.JPG"
        try flipByte(photo, at: 100)
        let bad = try bytes(photo)
        // The camera's file changed too, its name, size and date the same: the same object, other bytes.
        try flipByte(card.path("DCIM/100MEDIA/DJI_0002.JPG"), at: 200)

        #expect(run("verify --repair") == .failure)
        #expect(output.errors.contains { $0.hasPrefix("error: verify: \(photo): not repaired: ") && $0.contains("the camera's file gives xxh128:") && $0.contains("not replaced") }, "\(output.errors)")
        #expect(output.lines.last?.hasSuffix("; 1 changed; 0 repaired, 1 not repaired") == true, "\(output.lines)")
        #expect(try bytes(photo) == bad, "not replaced")
        #expect(!FileManager.default.fileExists(atPath: photo + ".verify-failed") && !FileManager.default.fileExists(atPath: photo + ".part"))
        #expect(try entry("DJI_0002.JPG")["repairs"] == nil)
        #expect(run("verify") == .failure)
    }

    @Test func aCopyWithoutAChecksumIsNotRepaired() throws {
        #expect(run("import --verify none --to \(pictures)/%f --backup \(backup)") == .success, "\(output.errors)")
        let gone = pictures + "/DJI_0002.JPG"
        try FileManager.default.removeItem(atPath: gone)
        #expect(run("verify --repair") == .failure)
        #expect(output.errors.contains { $0.hasPrefix("error: verify: \(gone): not repaired: no checksum was recorded for it") }, "\(output.errors)")
        #expect(!FileManager.default.fileExists(atPath: gone), "nothing proves the backup's or the camera's bytes")
        #expect(output.lines.last?.hasSuffix("; 1 missing; 0 repaired, 1 not repaired") == true, "\(output.lines)")
    }

    @Test func helpSaysWhatRepairDoes() throws {
        #expect(run("help verify") == .success)
        #expect(output.standardOutput.contains("--repair"))
        #expect(output.standardOutput.contains("verify --repair"), "an example")
    }
}
