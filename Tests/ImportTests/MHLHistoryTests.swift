import Checksums
import Foundation
import POSIX
import TestSupport
import Testing
@testable import Import

/// An ASC MHL history read and extended: what a generation records comes back as written, the next one
/// takes the next number and says `verified` or `failed` of a file recorded before, and every fault of a
/// history that may come from anyone (a path out of the root, an entity, a generation changed, a link
/// where the folder should be) is an `MHLError`, with nothing written.
struct MHLHistoryTests {
    let creator = MHLCreator(tool: "mediashell", version: "test", hostname: "host & <name>")

    @Test func aGenerationComesBackAsWrittenAndTheNextRecordsChecks() throws {
        let root = try TemporaryFolder("msh-mhl")
        let a = try root.write("2026/A & <B>.JPG", Array("first".utf8))
        let b = try root.write("2026/C.JPG", Array("second".utf8))
        var first = try MHLNewGeneration(root: root.path, creator: creator, process: .transfer)
        first.add(a, Checksum(.xxh128, hex: XXH128.hexDigest(of: Array("first".utf8))))
        first.add(b, Checksum(.xxh128, hex: XXH128.hexDigest(of: Array("second".utf8))))
        first.add("/elsewhere/D.JPG", Checksum(.xxh128, hex: XXH128.hexDigest(of: [])))
        try first.finish()
        #expect(first.fileName.hasPrefix("0001_\((root.path as NSString).lastPathComponent)_"))

        let history = try MHLHistory.open(root: root.path)
        #expect(history.generations.map(\.number) == [1])
        let originals = history.originals()
        #expect(Set(originals.keys) == ["2026/A & <B>.JPG", "2026/C.JPG"])
        #expect(originals["2026/A & <B>.JPG"]?.checksum == Checksum(.xxh128, hex: XXH128.hexDigest(of: Array("first".utf8))))
        #expect(originals["2026/C.JPG"]?.size == 6)
        #expect(history.generations[0].generation.hostname == "host & <name>")

        var second = try MHLNewGeneration(root: root.path, creator: creator, process: .inPlace)
        second.add(a, Checksum(.xxh128, hex: XXH128.hexDigest(of: Array("first".utf8))))
        second.add(b, Checksum(.xxh128, hex: XXH128.hexDigest(of: Array("changed".utf8))))
        try second.finish()
        let again = try MHLHistory.open(root: root.path)
        #expect(again.generations.map(\.number) == [1, 2])
        let actions = Dictionary(uniqueKeysWithValues: again.generations[1].generation.files.map { ($0.path, $0.hashes.map(\.action)) })
        #expect(actions == ["2026/A & <B>.JPG": [.verified], "2026/C.JPG": [.failed]])
        // The original is still the first generation's.
        #expect(again.originals()["2026/C.JPG"]?.checksum == Checksum(.xxh128, hex: XXH128.hexDigest(of: Array("second".utf8))))
    }

    /// A generation written by hand, chained as ascmhl chains it.
    static func history(_ root: TemporaryFolder, generation text: String, name: String = "0001_root_2026-12-07_100000Z.mhl") throws {
        let bytes = Array(text.utf8)
        _ = try root.write("ascmhl/" + name, bytes)
        let chain = MHLChain(links: [MHLChain.Link(number: 1, fileName: name, c4: C4ID.of(bytes))])
        _ = try root.write("ascmhl/ascmhl_chain.xml", chain.xml())
    }

    static func generation(path: String, hash: String = "<xxh128 action=\"original\">99aa06d3014798d86001c324468d497f</xxh128>") -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <hashlist version="2.0" xmlns="urn:ASC:MHL:v2.0">
          <creatorinfo><creationdate>2026-12-07T10:00:00+00:00</creationdate><hostname>h</hostname><tool>t</tool></creatorinfo>
          <processinfo><process>in-place</process></processinfo>
          <hashes><hash><path size="0">\(path)</path>\(hash)</hash></hashes>
        </hashlist>
        """
    }

    /// Why the history at `root` cannot be opened; nil when it can.
    static func failure(_ root: String) -> MHLError? {
        do {
            _ = try MHLHistory.open(root: root)
            return nil
        } catch {
            return error
        }
    }

    @Test func aHistoryFromOthersIsReadWithItsFormats() throws {
        let root = try TemporaryFolder("msh-mhl")
        try Self.history(root, generation: Self.generation(path: "a/b.txt", hash: "<md5 action=\"original\">D41D8CD98F00B204E9800998ECF8427E</md5>"))
        let copies = try MHLRecheck.copies(in: root.path)
        #expect(copies == [CopyToCheck(
            path: root.path + "/a/b.txt", expected: Checksum(.md5, hex: "d41d8cd98f00b204e9800998ecf8427e"), size: 0,
            recordedBy: root.path + "/ascmhl")])
    }

    @Test(arguments: [
        ("../outside.txt", "not inside the root"),
        ("/etc/passwd", "not inside the root"),
        ("a/./b", "not inside the root"),
        ("a//b", "not inside the root"),
    ])
    func aPathThatLeavesTheRootIsRefused(path: String, why: String) throws {
        let root = try TemporaryFolder("msh-mhl")
        try Self.history(root, generation: Self.generation(path: path))
        let failure = Self.failure(root.path)
        #expect(failure?.detail.contains(why) == true, "\(String(describing: failure))")
    }

    @Test(arguments: [
        ("<hashlist", "not an ASC MHL"),
        ("<hashlist version=\"2.0\" xmlns=\"urn:ASC:MHL:v2.0\"><hashes>", "not well-formed"),
        ("<?xml version=\"1.0\"?><other xmlns=\"urn:ASC:MHL:v2.0\"/>", "not an ASC MHL"),
        ("<hashlist version=\"1.0\" xmlns=\"urn:ASC:MHL:v2.0\"/>", "not version 2.0"),
        ("<?xml version=\"1.0\"?><!DOCTYPE hashlist [<!ENTITY a \"aaaa\"><!ENTITY b \"&a;&a;&a;\">]><hashlist version=\"2.0\" xmlns=\"urn:ASC:MHL:v2.0\">&b;</hashlist>", "document type"),
        ("<?xml version=\"1.0\"?><!DOCTYPE hashlist [<!ENTITY x SYSTEM \"file:///etc/passwd\">]><hashlist version=\"2.0\" xmlns=\"urn:ASC:MHL:v2.0\">&x;</hashlist>", "document type"),
        (generation(path: "a.txt", hash: "<xxh128 action=\"original\">not-hex</xxh128>"), "not one"),
        (generation(path: "a.txt", hash: "<xxh128 action=\"deleted\">99aa06d3014798d86001c324468d497f</xxh128>"), "action"),
        (generation(path: "a.txt").replacingOccurrences(of: "size=\"0\"", with: "size=\"-1\""), "size"),
        ("<hashlist version=\"2.0\" xmlns=\"urn:ASC:MHL:v2.0\">" + String(repeating: "<x>", count: 100) + String(repeating: "</x>", count: 100) + "</hashlist>", "nested"),
    ])
    func aMalformedGenerationIsAnError(text: String, why: String) throws {
        let root = try TemporaryFolder("msh-mhl")
        try Self.history(root, generation: text)
        let failure = Self.failure(root.path)
        #expect(failure?.detail.contains(why) == true, "\(String(describing: failure))")
    }

    @Test func aGenerationChangedSinceOrNamedByAPathIsAnError() throws {
        let root = try TemporaryFolder("msh-mhl")
        try Self.history(root, generation: Self.generation(path: "a.txt"))
        _ = try root.write("ascmhl/0001_root_2026-12-07_100000Z.mhl", Array(Self.generation(path: "b.txt").utf8))
        #expect(Self.failure(root.path)?.detail.contains("changed") == true)

        let other = try TemporaryFolder("msh-mhl")
        try Self.history(other, generation: Self.generation(path: "a.txt"))
        let chain = MHLChain(links: [MHLChain.Link(number: 1, fileName: "../../x.mhl", c4: C4ID.of([]))])
        _ = try other.write("ascmhl/ascmhl_chain.xml", chain.xml())
        #expect(Self.failure(other.path)?.detail.contains("not a file name") == true)
    }

    @Test func anAscmhlLinkIsNotFollowed() throws {
        let root = try TemporaryFolder("msh-mhl")
        let elsewhere = try TemporaryFolder("msh-mhl-elsewhere")
        try FileManager.default.createSymbolicLink(atPath: root.path + "/ascmhl", withDestinationPath: elsewhere.path)
        let file = try root.write("a.txt", [1, 2, 3])
        #expect(throws: MHLError.self) { try MHLNewGeneration(root: root.path, creator: creator, process: .transfer) }
        #expect(throws: MHLError.self) { try MHLRecheck.copies(in: root.path) }
        _ = file
        #expect(LocalDisk.names(in: elsewhere.path) == [])
    }
}
