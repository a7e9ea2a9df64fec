import Foundation
import MediaManager
import TestSupport
import Testing
import VirtualCamera

@testable import Shell

/// `import` in the interpreter over a `dir:` card of several folders: every new file once with its
/// sidecars and capture times, nothing the second time, exactly a new file after one appears, nothing when
/// the local files moved away; the ledger, clashes, listing, dry run.
@Suite struct ImportCommandTests {
    let card: TemporaryFolder
    let home: TemporaryFolder
    let interpreter: Interpreter
    let output: CapturedOutput
    static let taken = Date(timeIntervalSince1970: 1_717_243_200)  // 2024-06-01 12:00 UTC

    init() throws {
        card = try makeCardFolder(bigFileSize: 200_000)
        try card.write("DCIM/100MEDIA/DJI_0003.LRF", patternBytes(9_000, seed: 9))
        try card.write("MISC/readme.txt", text: "not media")
        for relative in try FileManager.default.subpathsOfDirectory(atPath: card.path) {
            try FileManager.default.setAttributes([.modificationDate: Self.taken], ofItemAtPath: card.path + "/" + relative)
        }
        home = try TemporaryFolder("msh-import")
        (interpreter, output, _) = makeInterpreter()
        interpreter.environment["XDG_DATA_HOME"] = home.path + "/data"
        try interpreter.open(.folder(path: card.path))
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

    var day: String {
        let f = DateFormatter()
        f.dateFormat = "yyyy/MM-dd"
        return f.string(from: Self.taken)
    }

    /// `find`'s filters choose what an import brings (issue 46: import had none): the clips with their
    /// sidecars; then the rest; a filter that keeps nothing says so and fetches nothing.
    @Test func importTakesFindsFilters() throws {
        #expect(run("import --to \(pictures)/%Y/%m-%d --kind video") == .success, "\(output.errors)")
        #expect(localFiles() == [
            "Birthday Party.MP4", "DJI_0003.LRF", "DJI_0003.MP4", "DJI_0003.SRT", "My Clip 1.MP4", "My Clip 2.MP4",
        ].map { "\(day)/\($0)" }.sorted())
        #expect(run("import --to \(pictures)/%Y/%m-%d --until 2000-01-01") == .failure)
        #expect(output.errors.last?.contains("no file on the card is kept by --since, --until, --kind or --larger") == true)
        #expect(run("import --to \(pictures)/%Y/%m-%d --since 2024-05-01 --kind photo") == .success, "\(output.errors)")
        #expect(localFiles().count == 10)
    }

    @Test func importsEveryNewFileOnce() throws {
        #expect(run("import --to \(pictures)/%Y/%m-%d") == .success, "\(output.errors)")
        let expected = [
            "Birthday Party.MP4", "DJI_0001.JPG", "DJI_0002.JPG", "DJI_0003.LRF", "DJI_0003.MP4", "DJI_0003.SRT",
            "IMG_0100.JPG", "IMG_0101.JPG", "My Clip 1.MP4", "My Clip 2.MP4",
        ].map { "\(day)/\($0)" }.sorted()
        #expect(localFiles() == expected)
        #expect(output.lines.count == 1, "one summary line: \(output.lines)")
        #expect(output.lines.last?.hasPrefix("import: 10 fetched, 0 skipped (already imported), 0 renamed, 0 failed;") == true)
        // The checksums of what was written, in a manifest at the destination's root that xxhsum checks.
        let manifests = (try FileManager.default.contentsOfDirectory(atPath: pictures)).filter(isImportManifest)
        #expect(manifests.count == 1 && output.lines.last?.contains("; checksums in \(pictures)/\(manifests[0])") == true,
            "\(output.lines)")
        for name in expected {
            let mtime = try FileManager.default.attributesOfItem(atPath: pictures + "/" + name)[.modificationDate] as? Date
            #expect(mtime.map { abs($0.timeIntervalSince(Self.taken)) < 1 } == true, "\(name): \(String(describing: mtime))")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: "\(pictures)/\(day)/DJI_0003.MP4")) == Data(card.read("DCIM/100MEDIA/DJI_0003.MP4") ?? []))

        // The second run brings nothing; -v names what it skipped.
        #expect(run("import --to \(pictures)/%Y/%m-%d") == .success)
        #expect(output.lines == [output.lines.last ?? ""])
        #expect(output.lines.last?.hasPrefix("import: 0 fetched, 10 skipped (already imported)") == true)
        #expect(run("import -v --to \(pictures)/%Y/%m-%d") == .success)
        #expect(output.lines.filter { $0.hasPrefix("skipped ") }.count == 10)

        // Moved away, they are still not new; --list and --dry-run agree.
        try FileManager.default.moveItem(atPath: pictures, toPath: home.path + "/Archive")
        #expect(run("import --list") == .success)
        #expect(output.lines == ["0 new files (0 B); 10 imported before"])
        #expect(run("import --to \(pictures)/%Y/%m-%d") == .success)
        #expect(localFiles().isEmpty)

        // A new file on the card: exactly that one (import reads the card afresh, no refresh needed).
        try card.write("DCIM/101MEDIA/IMG_0102.JPG", patternBytes(1_200, seed: 10))
        #expect(run("import --dry-run --to \(pictures)/%Y/%m-%d") == .success)
        #expect(output.lines.first?.hasPrefix("/DCIM/101MEDIA/IMG_0102.JPG -> \(pictures)/") == true)
        #expect(output.lines.last?.hasPrefix("would fetch 1 file (1.2 kB); 10 skipped as already imported") == true)
        #expect(run("import --to \(pictures)/%Y/%m-%d") == .success)
        #expect(localFiles().count == 1 && localFiles()[0].hasSuffix("/IMG_0102.JPG"))
    }

    @Test func foldersGlobsAndLeavingSidecarsOut() throws {
        #expect(run("import --to \(pictures) --no-sidecars --no-proxies /DCIM/100MEDIA/DJI_0003.*") == .success, "\(output.errors)")
        #expect(localFiles() == ["DJI_0003.MP4"])
        // A glob of the video brings its sidecars when they are not left out.
        #expect(run("import --to \(pictures) DCIM/100MEDIA/*.MP4") == .success)
        #expect(localFiles().contains("DJI_0003.SRT") && localFiles().contains("DJI_0003.LRF"))
        #expect(run("import --to \(pictures) DCIM/101MEDIA") == .success)
        #expect(localFiles().contains("IMG_0100.JPG"))
        #expect(!localFiles().contains("DJI_0001.JPG"))
    }

    @Test func aDifferentFileGetsAUniqueNameAndTheSettingIsTheDefault() throws {
        try FileManager.default.createDirectory(atPath: pictures, withIntermediateDirectories: true)
        try Data([1]).write(to: URL(fileURLWithPath: pictures + "/DJI_0001.JPG"))
        #expect(run("set import-to \(pictures)/%f") == .success)
        #expect(run("import DCIM/100MEDIA/DJI_0001.JPG") == .success, "\(output.errors)")
        #expect(output.lines.first?.contains("DJI_0001 (2).JPG") == true, "\(output.lines)")
        #expect(output.lines.last?.hasPrefix("import: 1 fetched, 0 skipped (already imported), 1 renamed") == true)
        #expect(run("set import-to /x/%q") == .failure)
        #expect(output.errors.last?.contains("unknown token %q") == true)
        #expect(run("import --to /x/%q") == .failure)
    }

    @Test func aCorruptLedgerIsAnErrorThatNamesIt() throws {
        #expect(run("import --to \(pictures)") == .success)
        let folder = home.path + "/data/mediashell/imports"
        let ledger = try #require(try FileManager.default.contentsOfDirectory(atPath: folder).first { $0.hasSuffix(".json") })
        try Data("{".utf8).write(to: URL(fileURLWithPath: folder + "/" + ledger))
        try FileManager.default.removeItem(atPath: pictures)
        #expect(run("import --to \(pictures)") == .failure)
        #expect(output.errors.last?.contains("the import ledger \(folder)/\(ledger) cannot be read") == true, "\(output.errors)")
        #expect(localFiles().isEmpty, "nothing imported again")
    }

    @Test func deleteAfterEmptiesTheCardOfWhatCameHome() throws {
        #expect(run("import --delete-after --to \(pictures) DCIM/101MEDIA") == .success, "\(output.errors)")
        #expect(!card.exists("DCIM/101MEDIA/IMG_0100.JPG") && !card.exists("DCIM/101MEDIA/IMG_0101.JPG"))
        #expect(card.exists("DCIM/100MEDIA/DJI_0001.JPG"))
        #expect(output.lines.last?.hasSuffix("; 2 deleted from the camera") == true)
    }

    /// `--verify` takes none, written or read-back; none computes no checksum, so there is no manifest.
    @Test func verifyTakesItsThreeWordsAndNoneWritesNoManifest() throws {
        #expect(run("import --verify sometimes --to \(pictures)") == .failure)
        #expect(output.errors.last?.contains("must be none or written or read-back") == true, "\(output.errors)")
        #expect(run("import --verify none --to \(pictures) DCIM/101MEDIA") == .success, "\(output.errors)")
        #expect(output.lines.last?.contains("checksums in") == false, "\(output.lines)")
        #expect(localFiles().count == 2)
        #expect(run("import --verify read-back --to \(pictures) DCIM/100MEDIA") == .success, "\(output.errors)")
        #expect(output.lines.last?.contains("checksums in \(pictures)/mediashell-import-") == true, "\(output.lines)")
    }

    /// A backup destination that is not there (a drive not mounted) is refused before anything moves, named;
    /// --force imports without it and says which files are then in one copy only.
    @Test func aMissingBackupIsRefusedNamedAndWithForceNoted() throws {
        let gone = home.path + "/NotMounted"
        #expect(run("import --to \(pictures) --backup \(gone) DCIM/101MEDIA") == .failure)
        #expect(output.errors == [
            "error: import: the backup destination \(gone) is not there (is its drive mounted?); make it, or use --force "
                + "to import without it (its files are then noted as missing there)",
        ])
        #expect(localFiles().isEmpty && !FileManager.default.fileExists(atPath: gone))
        #expect(run("import --force --to \(pictures) --backup \(gone) DCIM/101MEDIA") == .failure, "two copies were asked for")
        #expect(localFiles().count == 2 && !FileManager.default.fileExists(atPath: gone))
        #expect(output.errors.contains { $0.hasPrefix("error: import: the backup destination \(gone): ") }, "\(output.errors)")
        #expect(output.errors.contains { $0.contains("2 files are not in every destination, and stay on the camera") }, "\(output.errors)")
    }

    /// `--backup` twice makes three copies in one pass, each with its manifest; the import-backup setting
    /// names them when no --backup is given; the pattern's own root is refused as a backup.
    @Test func backupsRepeatAndComeFromTheSetting() throws {
        let ssd = home.path + "/SSD"
        let nas = home.path + "/NAS"
        for folder in [ssd, nas] { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        func photos(_ root: String) -> [String] {
            (FileManager.default.subpaths(atPath: root) ?? []).filter { $0.hasSuffix(".JPG") }.sorted()
        }
        func manifests(_ root: String) -> Int {
            ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).filter(isImportManifest).count
        }
        #expect(run("import --to \(pictures) --backup \(pictures)/ DCIM/101MEDIA") == .failure)
        #expect(output.errors.first?.contains("is where the import writes its first copy") == true, "\(output.errors)")
        #expect(run("import --to \(pictures) --backup \(ssd) --backup \(nas) --backup \(ssd)/ DCIM/101MEDIA") == .success, "\(output.errors)")
        #expect(photos(pictures) == ["IMG_0100.JPG", "IMG_0101.JPG"])
        #expect(photos(ssd) == photos(pictures) && photos(nas) == photos(pictures))
        #expect([pictures, ssd, nas].map(manifests) == [1, 1, 1])

        #expect(run("set import-backup \(ssd):\(nas)") == .success, "\(output.errors)")
        #expect(run("set import-backup") == .success)
        #expect(output.lines == ["import-backup \(ssd):\(nas)"], "\(output.lines)")
        #expect(run("import --to \(pictures) DCIM/100MEDIA") == .success, "\(output.errors)")
        #expect(photos(ssd).count == 4 && photos(nas) == photos(ssd) && photos(pictures) == photos(ssd), "\(photos(ssd))")
        #expect(run("set import-backup none") == .success)
        #expect(interpreter.state.settings.importBackups.isEmpty)
    }

    /// `--backup` with a token is a pattern of its own (the pattern's values, its folder before the first
    /// token as the destination); a bad token is one clear line, and two backups under one folder are refused.
    @Test func aBackupWithTokensIsAPatternOfItsOwn() throws {
        let ssd = home.path + "/SSD"
        try FileManager.default.createDirectory(atPath: ssd, withIntermediateDirectories: true)
        #expect(run("import --to \(pictures) --backup '\(ssd)/%Q/%f' DCIM/101MEDIA") == .failure)
        #expect(output.errors.count == 1 && output.errors[0].contains("unknown token %Q"), "\(output.errors)")
        #expect(run("import --to \(pictures) --backup '\(ssd)/%Y/%f' --backup '\(ssd)/%F/%f' DCIM/101MEDIA") == .failure)
        #expect(output.errors.first?.contains("two --backup destinations under \(ssd)") == true, "\(output.errors)")
        #expect(run("import --to \(pictures) --backup '\(ssd)/%F/%b-copy.%e' DCIM/101MEDIA") == .success, "\(output.errors)")
        let copies = (FileManager.default.subpaths(atPath: ssd) ?? []).filter { $0.hasSuffix(".JPG") }.sorted()
        #expect(copies == ["101MEDIA/IMG_0100-copy.JPG", "101MEDIA/IMG_0101-copy.JPG"], "\(copies)")
    }

    @Test func findLsRAndDuFilterAndCountWhatIsNew() throws {
        #expect(run("find --kind video /DCIM") == .success, "\(output.errors)")
        #expect(output.lines == [
            "/DCIM/100MEDIA/Birthday Party.MP4", "/DCIM/100MEDIA/DJI_0003.MP4", "/DCIM/100MEDIA/My Clip 1.MP4",
            "/DCIM/100MEDIA/My Clip 2.MP4",
        ])
        #expect(run("find --larger 20k --kind photo") == .success)
        #expect(output.lines == ["/DCIM/100MEDIA/DJI_0002.JPG"])
        #expect(run("find --since 2024-06-02 /") == .success)
        #expect(output.lines.isEmpty)
        #expect(run("find --until 2024-06-01 --kind photo DCIM/101MEDIA") == .success)
        #expect(output.lines == ["/DCIM/101MEDIA/IMG_0100.JPG", "/DCIM/101MEDIA/IMG_0101.JPG"])
        #expect(run("find --since soon") == .failure)
        #expect(run("find --since -100000d --kind photo DCIM/101MEDIA") == .success, "a day counted back")
        #expect(output.lines == ["/DCIM/101MEDIA/IMG_0100.JPG", "/DCIM/101MEDIA/IMG_0101.JPG"])
        #expect(run("cd DCIM; ls -R --kind photo") == .success)
        #expect(output.lines == ["100MEDIA/DJI_0001.JPG", "100MEDIA/DJI_0002.JPG", "101MEDIA/IMG_0100.JPG", "101MEDIA/IMG_0101.JPG"])
        #expect(run("cd /; du DCIM") == .success)
        #expect(output.lines.last?.hasSuffix("10 files  nothing new  total") == false)
        #expect(output.lines.last?.contains("new (10)") == true, "\(output.lines)")
        #expect(run("import --to \(pictures) DCIM/101MEDIA") == .success)
        #expect(run("find --new DCIM/101MEDIA") == .success)
        #expect(output.lines.isEmpty)
        #expect(run("du DCIM") == .success)
        #expect(output.lines.contains { $0.hasSuffix("nothing new  /DCIM/101MEDIA") }, "\(output.lines)")
        #expect(output.lines.last?.contains("new (8)") == true, "\(output.lines)")
    }
}
