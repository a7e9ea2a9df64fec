import Foundation
import TestSupport
import Testing

/// `import --mhl` and `verify` against ASC MHL's reference implementation (PyPI ascmhl, installed by
/// scripts/setup): its `verify` (with the folders' hashes) and its schema check accept the generations of a
/// 1,000-file import with a backup; a byte flipped in a copy fails both its `verify` and ours, and our next
/// generation records the file as failed; a history `ascmhl create` made, in each hash format, is checked
/// by our `verify` as by its own.
@Suite(
    .enabled(
        if: ShellBinary.exists && ExternalTool.ascmhlDebug != nil && ExternalTool.ascmhl != nil,
        "needs the built mediashell binary and ascmhl (scripts/setup installs it)"), .tags(.process), .notInFastRun)
struct ImportMHLTests {
    static let xsd = ExternalTool.ascmhlVirtualenv + "/xsd"

    /// `ascmhl-debug ARGUMENTS`: its exit status and what it printed.
    static func ascmhlDebug(_ arguments: [String]) throws -> (status: Int32, output: String) {
        try ExternalTool.ascmhlDebug!.status(arguments)
    }

    /// Every generation and the chain of the history at `root` pass the schemas.
    static func expectSchemaValid(_ root: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let folder = root + "/ascmhl"
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(names.contains("ascmhl_chain.xml"), sourceLocation: sourceLocation)
        for name in names where name.hasSuffix(".mhl") {
            let check = try ascmhlDebug(["xsd-schema-check", "-xsd", xsd + "/ASCMHL.xsd", folder + "/" + name])
            #expect(check.status == 0, "\(name): \(check.output)", sourceLocation: sourceLocation)
        }
        let chain = try ascmhlDebug(["xsd-schema-check", "-df", "-xsd", xsd + "/ASCMHLDirectory__combined.xsd", folder + "/ascmhl_chain.xml"])
        #expect(chain.status == 0, "\(chain.output)", sourceLocation: sourceLocation)
    }

    static func generations(_ root: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: root + "/ascmhl").filter { $0.hasSuffix(".mhl") }.sorted()
    }

    /// The text of the `<hash>` element for `path` in a generation.
    static func hashElement(_ path: String, in generation: String) throws -> String? {
        let text = try String(contentsOfFile: generation, encoding: .utf8)
        guard let start = text.range(of: ">\(path)</path>") else { return nil }
        return text[start.upperBound...].components(separatedBy: "</hash>").first
    }

    static func flipByte(_ path: String) throws {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        bytes[bytes.count / 2] ^= 0x5A
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    @Test func aThousandFileImportWithABackupPassesAscmhlAndAFlippedByteFailsBoth() throws {
        let home = try TemporaryFolder("msh-mhl")
        let card = try TemporaryFolder("msh-card")
        for index in 1...1000 {
            let folder = index <= 500 ? "100MEDIA" : "101MEDIA"
            _ = try card.write("DCIM/\(folder)/IMG_\(String(format: "%04d", index)).JPG", patternBytes(1_000 + index, seed: UInt64(index)))
        }
        try FileManager.default.createDirectory(atPath: home.path + "/Backup", withIntermediateDirectories: true)
        let environment = ["XDG_DATA_HOME": home.path + "/data", "HOME": home.path]
        let pictures = home.path + "/Pictures"
        let backup = home.path + "/Backup"
        let imported = try ShellBinary.run(
            ["-n", "--camera", "dir:" + card.path, "-c", "import --mhl --to \(pictures)/%F/%f --backup \(backup)"],
            environment: environment, timeout: 300)
        #expect(imported.status == 0, "\(imported.standardError)")
        #expect(imported.standardOutput.contains("1000 fetched"), "\(imported.standardOutput)")
        #expect(imported.standardOutput.contains("ASC MHL in \(pictures)/ascmhl/0001_Pictures_"), "\(imported.standardOutput)")

        for root in [pictures, backup] {
            #expect(try Self.generations(root).count == 1)
            try Self.expectSchemaValid(root)
            let verified = try Self.ascmhlDebug(["verify", root])
            #expect(verified.status == 0, "\(root): \(verified.output)")
            let folders = try Self.ascmhlDebug(["verify", "--directory_hash", root])
            #expect(folders.status == 0, "\(root): \(folders.output)")
        }

        // ascmhl's own generation over the same tree has the root hashes ours has.
        let created = try ExternalTool.ascmhl!.status(["create", pictures])
        #expect(created.status == 0, "\(created.output)")
        let ours = try String(contentsOfFile: pictures + "/ascmhl/" + Self.generations(pictures)[0], encoding: .utf8)
        let theirs = try String(contentsOfFile: pictures + "/ascmhl/" + Self.generations(pictures)[1], encoding: .utf8)
        #expect(Self.rootHashes(ours).count == 2)
        #expect(Self.rootHashes(ours) == Self.rootHashes(theirs))

        // One byte flipped in a backup copy: both verifies fail, and our next generation records it.
        let flipped = "101MEDIA/IMG_0777.JPG"
        try Self.flipByte(backup + "/" + flipped)
        let theirVerify = try Self.ascmhlDebug(["verify", backup])
        #expect(theirVerify.status != 0)
        #expect(theirVerify.output.contains(flipped), "\(theirVerify.output)")
        let ourVerify = try ShellBinary.run(["verify", backup], environment: environment, timeout: 120)
        #expect(ourVerify.status == 1, "\(ourVerify.standardOutput)")
        #expect(ourVerify.errorLines.count == 1 && ourVerify.errorLines[0].contains("\(backup)/\(flipped): changed"), "\(ourVerify.standardError)")
        #expect(ourVerify.standardOutput.contains("recorded in \(backup)/ascmhl/0002_Backup_"), "\(ourVerify.standardOutput)")
        let second = backup + "/ascmhl/" + (try Self.generations(backup))[1]
        #expect(try Self.hashElement(flipped, in: second)?.contains("action=\"failed\"") == true)
        #expect(try Self.hashElement("100MEDIA/IMG_0001.JPG", in: second)?.contains("action=\"verified\"") == true)
        let secondText = try String(contentsOfFile: second, encoding: .utf8)
        #expect(secondText.components(separatedBy: "action=\"verified\"").count - 1 == 999)
        try Self.expectSchemaValid(backup)
        // Their verify reads our two generations, and still fails on the file.
        let after = try Self.ascmhlDebug(["verify", backup])
        #expect(after.status != 0 && after.output.contains(flipped), "\(after.output)")
    }

    /// `set mhl on` does what `--mhl` does, sidecars of ours included; `--mhl` with `--verify none`, which
    /// computes no checksum to record, is refused.
    @Test func theSettingWritesAHistoryWithTheSidecarsAnImportWrites() throws {
        let home = try TemporaryFolder("msh-mhl")
        let card = try makeCardFolder(bigFileSize: 50_000)
        let pictures = home.path + "/Pictures"
        let environment = ["XDG_DATA_HOME": home.path + "/data", "HOME": home.path]
        let refused = try ShellBinary.run(
            ["-n", "--camera", "dir:" + card.path, "-c", "import --mhl --verify none --to \(pictures)/%f"], environment: environment)
        #expect(refused.status != 0 && refused.standardError.contains("cannot go with --verify none"), "\(refused.standardError)")
        let imported = try ShellBinary.run(
            ["-n", "--camera", "dir:" + card.path, "-c", "set creator 'Ann Lee'; set mhl on; import --to \(pictures)/%f"],
            environment: environment)
        #expect(imported.status == 0, "\(imported.standardError)")
        #expect(FileManager.default.fileExists(atPath: pictures + "/DJI_0001.JPG.xmp"))
        let generation = pictures + "/ascmhl/" + (try Self.generations(pictures))[0]
        #expect(try Self.hashElement("DJI_0001.JPG.xmp", in: generation)?.contains("action=\"original\"") == true)
        let verified = try Self.ascmhlDebug(["verify", pictures])
        #expect(verified.status == 0, "\(verified.output)")
        try Self.expectSchemaValid(pictures)

        // `verify` of the ledgers' copies, no folder named, extends the history above them.
        let ours = try ShellBinary.run(["verify"], environment: environment)
        #expect(ours.status == 0, "\(ours.standardError)")
        #expect(ours.standardOutput.contains("recorded in \(pictures)/ascmhl/0002_Pictures_"), "\(ours.standardOutput)")
        let second = pictures + "/ascmhl/" + (try Self.generations(pictures))[1]
        #expect(try Self.hashElement("DJI_0002.JPG", in: second)?.contains("action=\"verified\"") == true)
        #expect(try Self.ascmhlDebug(["verify", pictures]).status == 0)
    }

    /// A pattern of no folder (`%f`) has the current folder as its root: the history is there, named after it.
    @Test func anImportIntoTheCurrentFolderHasItsHistoryThere() throws {
        let home = try TemporaryFolder("msh-mhl")
        let card = try makeCardFolder(bigFileSize: 50_000)
        let pictures = home.path + "/Pictures"
        try FileManager.default.createDirectory(atPath: pictures, withIntermediateDirectories: true)
        let imported = try ShellBinary.run(
            ["-n", "--camera", "dir:" + card.path, "-c", "import --mhl --to %f"], directory: pictures,
            environment: ["XDG_DATA_HOME": home.path + "/data", "HOME": home.path])
        #expect(imported.status == 0, "\(imported.standardError)")
        let names = try Self.generations(pictures)
        #expect(names.count == 1 && names[0].hasPrefix("0001_Pictures_"), "\(names)")
        #expect(try Self.hashElement("DJI_0001.JPG", in: pictures + "/ascmhl/" + names[0]) != nil)
        let verified = try Self.ascmhlDebug(["verify", pictures])
        #expect(verified.status == 0, "\(verified.output)")
    }

    /// A history at the root that cannot be read (here a chain that is not XML) stops the import before it
    /// fetches anything, naming the file; nothing is written into it.
    @Test func aHistoryThatCannotBeReadStopsTheImportFirst() throws {
        let home = try TemporaryFolder("msh-mhl")
        let card = try makeCardFolder(bigFileSize: 50_000)
        let pictures = home.path + "/Pictures"
        _ = try writeFile(pictures + "/ascmhl/0001_Pictures_2026-12-07_100000Z.mhl", Array("<hashlist".utf8))
        _ = try writeFile(pictures + "/ascmhl/ascmhl_chain.xml", Array("\u{0}\u{1}not xml".utf8))
        let imported = try ShellBinary.run(
            ["-n", "--camera", "dir:" + card.path, "-c", "import --mhl --to \(pictures)/%f"],
            environment: ["XDG_DATA_HOME": home.path + "/data", "HOME": home.path])
        #expect(imported.status != 0)
        #expect(imported.standardError.contains("the ASC MHL history \(pictures)/ascmhl/ascmhl_chain.xml cannot be used"),
            "\(imported.standardError)")
        #expect(!FileManager.default.fileExists(atPath: pictures + "/DJI_0001.JPG"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: pictures + "/ascmhl").count == 2)
    }

    /// The root's content and structure hashes in a generation.
    static func rootHashes(_ text: String) -> [String] {
        guard let start = text.range(of: "<roothash>"), let end = text.range(of: "</roothash>") else { return [] }
        return text[start.upperBound..<end.lowerBound].components(separatedBy: "\">").dropFirst().compactMap {
            $0.components(separatedBy: "</").first
        }
    }

    @Test(arguments: ["xxh128", "xxh64", "xxh3", "md5", "sha1", "c4"])
    func ourVerifyAgreesWithAscmhlCreate(format: String) throws {
        let tree = try TemporaryFolder("msh-mhl-tree")
        for (index, name) in ["A001/clip 1.mov", "A001/clip & 2.mov", "B/C/still.jpg", "top.txt"].enumerated() {
            _ = try tree.write(name, patternBytes(3_000 + index * 101, seed: UInt64(40 + index)))
        }
        let created = try ExternalTool.ascmhl!.status(["create", "-h", format, tree.path])
        #expect(created.status == 0, "\(created.output)")
        let environment = ["XDG_DATA_HOME": tree.path + "-no-ledgers"]

        let clean = try ShellBinary.run(["verify", tree.path], environment: environment)
        #expect(clean.status == 0, "\(clean.standardError)")
        #expect(clean.outputLines.last?.hasPrefix("verify: 4 copies checked") == true, "\(clean.standardOutput)")
        try Self.expectSchemaValid(tree.path)
        let theirs = try Self.ascmhlDebug(["verify", tree.path])
        #expect(theirs.status == 0, "\(theirs.output)")

        try Self.flipByte(tree.path + "/B/C/still.jpg")
        let broken = try ShellBinary.run(["verify", tree.path], environment: environment)
        #expect(broken.status == 1)
        #expect(broken.errorLines.count == 1 && broken.errorLines[0].contains("still.jpg: changed"), "\(broken.standardError)")
        let theirsBroken = try Self.ascmhlDebug(["verify", tree.path])
        #expect(theirsBroken.status != 0 && theirsBroken.output.contains("B/C/still.jpg"), "\(theirsBroken.output)")
        let third = tree.path + "/ascmhl/" + (try Self.generations(tree.path))[2]
        #expect(try Self.hashElement("B/C/still.jpg", in: third)?.contains("<\(format) action=\"failed\"") == true)
    }
}
