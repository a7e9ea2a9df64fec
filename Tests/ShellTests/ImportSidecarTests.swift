import Foundation
import MediaManager
import TestSupport
import Testing

@testable import Shell

/// `import --meta FILE` and the sidecar settings (issue 46): an XMP sidecar beside every photo and video it
/// brings, which exiftool reads under the names photo managers use (XMP-dc, XMP-xmp, XMP-photoshop), named
/// as darktable and digiKam (`NAME.EXT.xmp`) or Lightroom (`NAME.xmp`) want; never one for a sidecar, never
/// over one already there; a metadata file that is not one stops the import before it begins.
@Suite(.enabled(if: ExternalTool.exiftool != nil, "exiftool reads the sidecars"), .tags(.process), .notInFastRun)
struct ImportSidecarTests {
    let card: TemporaryFolder
    let home: TemporaryFolder
    let interpreter: Interpreter
    let output: CapturedOutput

    init() throws {
        card = try makeCardFolder(bigFileSize: 200_000)
        // A card folder's files are dated by their modification time: {year} and the sidecar's dates are its.
        for name in ["DJI_0001.JPG", "DJI_0002.JPG", "DJI_0003.MP4"] {
            try FileManager.default.setAttributes(
                [.modificationDate: Date(timeIntervalSince1970: 1_715_000_000)], ofItemAtPath: card.path + "/DCIM/100MEDIA/" + name)
        }
        home = try TemporaryFolder("msh-sidecar")
        (interpreter, output, _) = makeInterpreter()
        interpreter.environment["XDG_DATA_HOME"] = home.path + "/data"
        try interpreter.open(.folder(path: card.path))
    }

    var out: String { home.path + "/out" }

    func metaFile(_ text: String) throws -> String { try home.write("meta.txt", text: text) }

    @Test(arguments: [XMPNaming.afterExtension, .replacingExtension])
    func everyMediaFileGetsASidecarExiftoolReads(naming: XMPNaming) throws {
        let meta = try metaFile("""
            # stationery for the flight
            creator: Ann Lee, Bo Chen
            copyright: © {year} Ann Lee & co
            keywords: drone, coast, {camera}
            rating: 4
            title: Over <the> lake
            """)
        #expect(interpreter.run(line: "set sidecar-name \(naming.setting)") == .success)
        #expect(interpreter.run(line: "import --to \(out) --meta \(meta)") == .success, "\(output.errors)")
        let sidecar = out + "/" + naming.name("DJI_0001.JPG")
        let year = "2024"  // the file's, set in init: not the year of the import
        let values = try ExifToolOracle.values(sidecar)
        #expect(values["XMP-dc:Creator"] as? [String] == ["Ann Lee", "Bo Chen"], "\(values)")
        #expect(values["XMP-dc:Rights"] as? String == "© \(year) Ann Lee & co", "\(values)")
        #expect(values["XMP-dc:Subject"] as? [String] == ["drone", "coast", "card folder"], "\(values)")
        #expect(values["XMP-dc:Title"] as? String == "Over <the> lake")
        #expect((values["XMP-xmp:Rating"] as? NSNumber)?.intValue == 4)
        #expect(values["XMP-xmp:CreatorTool"] as? String == "mediashell \(Shell.version)")
        #expect((values["XMP-xmp:CreateDate"] as? String)?.hasPrefix(year + ":") == true, "\(values)")
        #expect(values["XMP-photoshop:DateCreated"] as? String == values["XMP-xmp:CreateDate"] as? String)
        // Media files only: a clip's .SRT gets none.
        let written = try FileManager.default.contentsOfDirectory(atPath: out).filter { $0.hasSuffix(".xmp") }
        let media = try FileManager.default.contentsOfDirectory(atPath: out).filter { name in
            [".JPG", ".MP4"].contains { name.hasSuffix($0) }
        }
        #expect(written.count == media.count && !written.contains { $0.contains(".SRT") }, "\(written)")
    }

    @Test func aSidecarAlreadyThereIsKept() throws {
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        try "mine".write(toFile: out + "/DJI_0001.JPG.xmp", atomically: true, encoding: .utf8)
        #expect(interpreter.run(line: "set creator 'Ann Lee'") == .success)
        #expect(interpreter.run(line: "import --to \(out)") == .success, "\(output.errors)")
        #expect(try String(contentsOfFile: out + "/DJI_0001.JPG.xmp", encoding: .utf8) == "mine")
        #expect(FileManager.default.fileExists(atPath: out + "/DJI_0002.JPG.xmp"), "the settings alone write sidecars")
    }

    @Test func theCamerasOwnXMPComesBesideItsFileAndOursIsNotWritten() throws {
        try card.write("DCIM/100MEDIA/DJI_0002.XMP", text: "<x:xmpmeta xmlns:x='adobe:ns:meta/'/>")
        #expect(interpreter.run(line: "set sidecar-name base") == .success)
        #expect(interpreter.run(line: "set creator 'Ann Lee'") == .success)
        #expect(interpreter.run(line: "import --to \(out)") == .success, "\(output.errors)")
        let names = try FileManager.default.contentsOfDirectory(atPath: out).filter { $0.lowercased().hasSuffix(".xmp") }.sorted()
        #expect(names.contains("DJI_0002.XMP") && !names.contains("DJI_0002.xmp") && names.contains("DJI_0001.xmp"), "\(names)")
        #expect(try String(contentsOfFile: out + "/DJI_0002.XMP", encoding: .utf8).contains("adobe:ns:meta"))
    }

    @Test func aMetadataFileThatIsNotOneStopsTheImportBeforeItBegins() throws {
        let meta = try metaFile("creator: Ann\nrating: eleven\n")
        #expect(interpreter.run(line: "import --to \(out) --meta \(meta)") == .failure)
        #expect(output.errors.last?.contains("line 2: a rating is a whole number from 0 to 5") == true, "\(output.errors)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }
}

/// The two namings, as the tests name them.
enum XMPNaming: CustomStringConvertible {
    case afterExtension, replacingExtension
    var setting: String { self == .afterExtension ? "ext" : "base" }
    func name(_ file: String) -> String {
        self == .afterExtension ? file + ".xmp" : (file as NSString).deletingPathExtension + ".xmp"
    }
    var description: String { setting }
}
