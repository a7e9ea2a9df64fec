import Checksums
import Connectors
import Foundation
import MediaManager
import TestSupport
import Testing
@testable import Import

/// The manifest an import writes at its destination's root is checked by the standard tool (`xxhsum -c`,
/// run from that folder as a user would), passes for the files as written, and fails, naming the file,
/// once one byte of one copy changed.
@Suite(.enabled(if: ExternalTool.find("xxhsum") != nil, "needs xxhsum (Debian xxhash; scripts/setup installs it)"), .tags(.process), .notInFastRun)
struct ManifestTests {
    /// `xxhsum -c NAME` run in `folder`: its exit status and what it printed.
    static func check(_ manifest: String, in folder: String, strict: Bool = false) throws -> (status: Int32, output: String) {
        try ExternalTool.find("xxhsum")!.status(["-c"] + (strict ? ["--strict"] : []) + [manifest], in: folder)
    }

    @Test func xxhsumPassesTheManifestAndFailsOneChangedByte() throws {
        let card = try CardOnDisk()
        var options = ImportRun.Options()
        options.writesManifest = true
        let session = try MediaSession.open(.folder(path: card.card))
        defer { session.close() }
        let outcome = try runImport(card, session: session, run: options)
        #expect(outcome.summary.failed == 0)
        let manifest = try #require(outcome.summary.manifests.first)
        #expect(outcome.summary.manifests.count == 1)
        #expect(LocalDiskPaths.parent(manifest) == card.pictures, "at the destination's root")
        let name = (manifest as NSString).lastPathComponent
        #expect(name.hasPrefix("mediashell-import-") && name.hasSuffix(".xxh128"), "\(name)")

        // One line per file written, each path relative to the root.
        let copies = card.files(under: card.pictures).filter { $0 != name }
        let lines = try String(contentsOfFile: manifest, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == outcome.summary.fetched)
        #expect(Set(lines.map { String($0.dropFirst(34)) }) == Set(copies))

        let passed = try Self.check(name, in: card.pictures)
        #expect(passed.status == 0, "\(passed.output)")
        #expect(passed.output.split(separator: "\n").filter { $0.hasSuffix(": OK") }.count == copies.count, "\(passed.output)")

        // One byte of one copy changes (bit rot, a drive that lies): the tool names that file.
        let victim = try #require(copies.first { $0.hasSuffix("DJI_0002.JPG") })
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: card.pictures + "/" + victim))
        try handle.seek(toOffset: 1234)
        let byte = try #require(try handle.read(upToCount: 1)?.first)
        try handle.seek(toOffset: 1234)
        try handle.write(contentsOf: Data([byte ^ 0x01]))
        try handle.close()
        let failed = try Self.check(name, in: card.pictures)
        #expect(failed.status != 0)
        #expect(failed.output.contains("\(victim): FAILED"), "\(failed.output)")
        #expect(failed.output.split(separator: "\n").filter { $0.hasSuffix(": OK") }.count == copies.count - 1)
    }

    /// Two imports in the same second get manifests of their own; a run that writes nothing writes none.
    @Test func eachImportHasItsOwnManifestAndAnEmptyOneNone() throws {
        let root = try temporaryFolder("manifest")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        var first = ImportManifest(root: root, date: date, timeZone: TimeZone(identifier: "UTC")!)
        #expect(first.path == root + "/mediashell-import-2023-11-14_221320.xxh128")
        try first.write()
        #expect(!FileManager.default.fileExists(atPath: first.path), "nothing written, no manifest")
        first.add(root + "/2023/A.JPG", Checksum(.xxh128, hex: XXH128.hexDigest(of: [1, 2, 3])))
        try first.write()
        let second = ImportManifest(root: root, date: date, timeZone: TimeZone(identifier: "UTC")!)
        #expect(second.path == root + "/mediashell-import-2023-11-14_221320-2.xxh128")
        #expect(try String(contentsOfFile: first.path, encoding: .utf8) == XXH128.hexDigest(of: [1, 2, 3]) + "  2023/A.JPG\n")
    }
}

enum LocalDiskPaths {
    static func parent(_ path: String) -> String { (path as NSString).deletingLastPathComponent }
}
