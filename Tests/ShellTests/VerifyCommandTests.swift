import Foundation
import TestSupport
import Testing

/// `mediashell verify [DIR...]` from the command line, no camera: after `import --backup` every copy is as
/// recorded (exit 0, a summary); a changed byte and a deleted copy are one line each on standard error and
/// exit 1; with a DIR, its manifest checks it.
@Suite(.enabled(if: ShellBinary.exists, "needs the built mediashell binary"), .tags(.process), .notInFastRun)
struct VerifyCommandTests {
    @Test func copiesAsRecordedPassAndAChangedOrMissingOneFails() throws {
        let home = try TemporaryFolder("msh-verify")
        let card = try makeCardFolder(bigFileSize: 100_000)
        try FileManager.default.createDirectory(atPath: home.path + "/Backup", withIntermediateDirectories: true)
        let environment = ["XDG_DATA_HOME": home.path + "/data", "HOME": home.path]
        let imported = try ShellBinary.run(
            ["-n", "--camera", "dir:" + card.path, "-c", "import --to \(home.path)/Pictures/%f --backup \(home.path)/Backup"],
            environment: environment)
        #expect(imported.status == 0, "\(imported.standardError)")

        let clean = try ShellBinary.run(["verify"], environment: environment)
        #expect(clean.status == 0, "\(clean.standardError)")
        #expect(clean.errorLines.isEmpty)
        #expect(clean.outputLines.last?.hasPrefix("verify: 18 copies checked") == true, "\(clean.standardOutput)")
        #expect(clean.outputLines.last?.hasSuffix("; all as recorded") == true)

        let photo = home.path + "/Pictures/DJI_0001.JPG"
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: photo)))
        bytes[777] ^= 0xFF
        try Data(bytes).write(to: URL(fileURLWithPath: photo))
        try FileManager.default.removeItem(atPath: home.path + "/Backup/IMG_0100.JPG")
        let broken = try ShellBinary.run(["verify"], environment: environment)
        #expect(broken.status == 1)
        #expect(broken.errorLines.count == 2, "\(broken.standardError)")
        #expect(broken.errorLines.contains { $0.contains("\(photo): changed") })
        #expect(broken.errorLines.contains { $0.contains("\(home.path)/Backup/IMG_0100.JPG: missing") })
        #expect(broken.outputLines.last?.hasSuffix("; 1 changed, 1 missing") == true, "\(broken.standardOutput)")

        // The backup folder alone, by its manifest, with no ledger at all.
        let byManifest = try ShellBinary.run(["verify", home.path + "/Backup"], environment: ["XDG_DATA_HOME": home.path + "/none"])
        #expect(byManifest.status == 1 && byManifest.errorLines.count == 1, "\(byManifest.standardError)")
        #expect(byManifest.outputLines.last?.hasPrefix("verify: 9 copies checked") == true, "\(byManifest.standardOutput)")

        // --repair from the command line, no camera: each copy made again from the other, proven.
        let repaired = try ShellBinary.run(["verify", "--repair"], environment: environment)
        #expect(repaired.status == 0, "\(repaired.standardError)")
        #expect(repaired.outputLines.filter { $0.hasPrefix("repaired ") }.count == 2, "\(repaired.standardOutput)")
        #expect(repaired.outputLines.last?.hasSuffix("; 1 changed, 1 missing; 2 repaired") == true, "\(repaired.standardOutput)")
        let after = try ShellBinary.run(["verify"], environment: environment)
        #expect(after.status == 0 && after.outputLines.last?.hasSuffix("; all as recorded") == true, "\(after.standardOutput)")
    }
}
