import Connectors
import Foundation
import MediaManager
import TestSupport
import Testing

@testable import Shell
@testable import TerminalKit

/// Globs and names matched against a real catalog (a `dir:` card read through the virtual camera).
@Suite struct CatalogNamesTests {
    let card: TemporaryFolder
    let session: MediaSession

    init() throws {
        card = try makeCardFolder()
        session = try MediaSession.open(.folder(path: card.path))
        try session.catalog.ensureLoaded()
    }

    private func names(from folder: String = "DCIM/100MEDIA") -> CatalogNames {
        CatalogNames(catalog: session.catalog, folder: folder)
    }

    private func words(_ line: String) throws -> [Word] { try Tokenizer.words(in: line) }

    private func shown(_ line: String, from folder: String = "DCIM/100MEDIA") throws -> [String] {
        try names(from: folder).entries(for: words(line)).map(\.shown)
    }

    @Test func globsMatchTheFolderNames() throws {
        #expect(try shown("*.JPG") == ["DJI_0001.JPG", "DJI_0002.JPG"])
        #expect(try shown("DJI_000?.*") == ["DJI_0001.JPG", "DJI_0002.JPG", "DJI_0003.MP4", "DJI_0003.SRT"])
        #expect(try shown("My*") == ["My Clip 1.MP4", "My Clip 2.MP4"])
        #expect(try shown("[BM]*.MP4") == ["Birthday Party.MP4", "My Clip 1.MP4", "My Clip 2.MP4"])
        #expect(try shown("*[!4]") == ["DJI_0001.JPG", "DJI_0002.JPG", "DJI_0003.SRT"])
    }

    @Test func globsWithFolderParts() throws {
        #expect(try shown("../101MEDIA/*") == ["../101MEDIA/IMG_0100.JPG", "../101MEDIA/IMG_0101.JPG"])
        #expect(try shown("/DCIM/1*/IMG_010?.JPG") == ["/DCIM/101MEDIA/IMG_0100.JPG", "/DCIM/101MEDIA/IMG_0101.JPG"])
        #expect(try shown("*/", from: "DCIM") == ["100MEDIA", "101MEDIA"])
        #expect(try shown("DCIM/*/DJI_0001.JPG", from: "") == ["DCIM/100MEDIA/DJI_0001.JPG"])
        let entries = try names(from: "").entries(for: words("DCIM/*"))
        #expect(entries.allSatisfy { $0.isFolder })
        #expect(entries.map(\.path) == ["DCIM/100MEDIA", "DCIM/101MEDIA"])
    }

    @Test func quotedWildcardsAreLiteral() throws {
        #expect(throws: CommandError.self) { try shown("'DJI_000?.JPG'") }
        #expect(try shown("My\\ Clip\\ 1.MP4") == ["My Clip 1.MP4"])
        #expect(try shown("\"Birthday Party.MP4\"") == ["Birthday Party.MP4"])
    }

    @Test func aGlobThatMatchesNothingIsAnError() throws {
        #expect(throws: CommandError("no match for '*.CR3'")) { try shown("*.CR3") }
        #expect(throws: CommandError("no match for '*.jpg' (names are case-sensitive)")) { try shown("*.jpg") }
        #expect(throws: CommandError("no such file or folder: NOPE.JPG")) { try shown("NOPE.JPG") }
    }

    @Test func literalNamesAndFolders() throws {
        let root = try #require(names().entry(atTyped: "/"))
        #expect(root.isFolder && root.path == "")
        let folder = try #require(names().entry(atTyped: "../101MEDIA"))
        #expect(folder.isFolder && folder.path == "DCIM/101MEDIA")
        let file = try #require(names().entry(atTyped: "DJI_0003.MP4"))
        #expect(!file.isFolder && file.file?.size == 3_000_000)
    }

    @Test func severalWordsNameEachFileOnce() throws {
        #expect(try shown("DJI_0001.JPG *.JPG DJI_0003*") == ["DJI_0001.JPG", "DJI_0002.JPG", "DJI_0003.MP4", "DJI_0003.SRT"])
    }
}
