import Foundation
import MediaManager
import TestSupport
import Testing

@testable import Shell

/// Every card folder is a card of its own to the import ledger: two cards whose folders have the same
/// name, holding files of the same names, sizes and dates, are imported both; the same card opened again
/// (under another path, through a symlink) is the same card. `sim:PATH` folders likewise; the demo card
/// keeps its serial number.
@Suite struct ImportLedgerIdentityTests {
    static let taken = Date(timeIntervalSince1970: 1_717_243_200)
    let home: TemporaryFolder
    let interpreter: Interpreter
    let output: CapturedOutput

    init() throws {
        home = try TemporaryFolder("msh-ledger-id")
        (interpreter, output, _) = makeInterpreter()
        interpreter.environment["XDG_DATA_HOME"] = home.path + "/data"
    }

    /// A card at `parent/CARD` with one photo of `seed`'s bytes, dated `taken`.
    func card(in parent: String, seed: UInt64) throws -> String {
        let path = home.path + "/" + parent + "/CARD"
        try FileManager.default.createDirectory(atPath: path + "/DCIM/100MEDIA", withIntermediateDirectories: true)
        let photo = path + "/DCIM/100MEDIA/DJI_0001.JPG"
        try Data(patternBytes(2_000, seed: seed)).write(to: URL(fileURLWithPath: photo))
        try FileManager.default.setAttributes([.modificationDate: Self.taken], ofItemAtPath: photo)
        return path
    }

    /// Imports into a folder of its own, so that only the ledger (not a file already at the destination)
    /// can say a file came before.
    func importLine(_ url: CameraURL, to folder: String) throws -> String {
        try interpreter.open(url)
        output.standardOutput = ""
        output.errors = []
        #expect(interpreter.run(line: "import --to \(home.path)/\(folder)") == .success, "\(output.errors)")
        return output.lines.last ?? ""
    }

    @Test func twoCardsWithTheSameNamesHaveTwoLedgers() throws {
        let first = try card(in: "reader-a", seed: 1)
        let second = try card(in: "reader-b", seed: 2)
        #expect(try importLine(.folder(path: first), to: "one").hasPrefix("import: 1 fetched, 0 skipped"), "\(output.lines)")
        // Another card, whose photo has the same name, size and date: new all the same.
        #expect(try importLine(.folder(path: second), to: "two").hasPrefix("import: 1 fetched, 0 skipped"), "\(output.lines)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: home.path + "/two/DJI_0001.JPG")) == Data(patternBytes(2_000, seed: 2)))
        // The first card again, through a symlink (mounted elsewhere): the same card, nothing new.
        let link = home.path + "/mounted-again"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: first)
        #expect(try importLine(.folder(path: link), to: "three").hasPrefix("import: 0 fetched, 1 skipped (already imported)"),
            "\(output.lines)")
    }

    /// Another card holding the first card's photo under another name (issue 46): `import` says where it
    /// came home from and fetches nothing (into the folder the first import filled: a copy elsewhere is not
    /// where this import puts it); the dry run names it; `--again` brings it all the same.
    @Test func aFileAnotherCardBroughtHomeIsNotFetchedAgain() throws {
        let first = try card(in: "reader-a", seed: 1)
        let second = try card(in: "reader-b", seed: 1)
        try FileManager.default.moveItem(atPath: second + "/DCIM/100MEDIA/DJI_0001.JPG", toPath: second + "/DCIM/100MEDIA/COPY_0001.JPG")
        #expect(try importLine(.folder(path: first), to: "one").hasPrefix("import: 1 fetched"), "\(output.lines)")
        let firstKey = try #require(interpreter.media).camera.summary.serialNumber

        try interpreter.open(.folder(path: second))
        output.standardOutput = ""
        #expect(interpreter.run(line: "import --dry-run -v --to \(home.path)/one") == .success, "\(output.errors)")
        #expect(output.lines.contains { $0.contains("COPY_0001.JPG: imported from ") && $0.contains(firstKey) && $0.hasSuffix("one/DJI_0001.JPG") },
            "\(output.lines)")
        #expect(try importLine(.folder(path: second), to: "one").hasPrefix("import: 0 fetched, 1 skipped"), "\(output.lines)")
        #expect(output.lines.contains { $0.hasPrefix("import: 1 already imported from ") && $0.contains(firstKey) && $0.hasSuffix(": not fetched") },
            "\(output.lines)")
        #expect(!FileManager.default.fileExists(atPath: home.path + "/one/COPY_0001.JPG"))
        #expect(try importLine(.folder(path: second), to: "one").hasPrefix("import: 0 fetched, 1 skipped"), "recorded: \(output.lines)")
        output.standardOutput = ""
        #expect(interpreter.run(line: "import --again --to \(home.path)/one") == .success, "\(output.errors)")
        #expect(output.lines.last?.hasPrefix("import: 1 fetched") == true, "\(output.lines)")
    }

    @Test func servedFoldersAndTheDemoCardEachHaveASerialOfTheirOwn() throws {
        func serial(_ url: CameraURL) throws -> String {
            try interpreter.open(url)
            return try #require(interpreter.media).camera.summary.serialNumber
        }
        let first = try card(in: "a", seed: 1)
        let second = try card(in: "b", seed: 2)
        let serials = try [serial(.simulator(path: first)), serial(.simulator(path: second)), serial(.simulator(path: nil)),
            serial(.folder(path: first)), serial(.folder(path: second))]
        #expect(Set(serials).count == 5, "\(serials)")
        #expect(serials[2] == "MSH00000001", "the demo card keeps its serial")
        #expect(try serial(.simulator(path: first)) == serials[0], "stable")
        #expect(try serial(.folder(path: first + "/")) == serials[3], "stable")
        for value in serials { #expect(!value.contains("CARD") && !value.contains("/"), "names no path: \(value)") }
    }
}
