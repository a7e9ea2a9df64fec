import Checksums
import Failures
import Foundation
import MediaManager
import POSIX
import Testing
@testable import Import

@Suite struct LedgerTests {
    func entry(_ n: Int, path: String = "/x") -> LedgerEntry {
        LedgerEntry(
            name: "IMG_\(n).JPG", folder: "DCIM/100", size: UInt64(1000 + n), captured: Date(timeIntervalSince1970: Double(n)),
            checksum: nil, path: path, imported: Date(), sequence: n)
    }

    @Test func recordsSurviveReopening() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let ledger = try ImportLedger(cameraKey: "Canon EOS R6 123", folder: folder)
        #expect(ledger.entries.isEmpty)
        try ledger.record([entry(1), entry(2)], sequence: 2)
        let again = try ImportLedger(cameraKey: "Canon EOS R6 123", folder: folder)
        #expect(again.entries.count == 2)
        #expect(again.sequence == 2)
        #expect(again.contains(ObjectIdentity(name: "IMG_1.JPG", size: 1001, captured: Date(timeIntervalSince1970: 1))))
        // The identity is the object, not where it went: a different size is a different object.
        #expect(!again.contains(ObjectIdentity(name: "IMG_1.JPG", size: 1002, captured: Date(timeIntervalSince1970: 1))))
        // No temporary file is left beside it.
        let names = try FileManager.default.contentsOfDirectory(atPath: folder)
        #expect(!names.contains { $0.contains(".tmp.") })
    }

    @Test(arguments: ["{not json", "", "{\"format\":\"something-else\",\"version\":1,\"camera\":\"c\",\"sequence\":0,\"entries\":[]}",
                      "{\"format\":\"mediashell-import-ledger\",\"version\":1,\"camera\":\"another\",\"sequence\":0,\"entries\":[]}",
                      "{\"format\":\"mediashell-import-ledger\",\"version\":1,\"camera\":\"c\",\"sequence\":0,\"entries\":[{\"name\":1}]}"])
    func aCorruptLedgerIsAnErrorNamingTheFile(content: String) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/" + LedgerLocation.fileName(for: "c")
        try Data(content.utf8).write(to: URL(fileURLWithPath: path))
        do {
            _ = try ImportLedger(cameraKey: "c", folder: folder)
            Issue.record("a corrupt ledger was read as empty")
        } catch let error as ImportError {
            guard case .corruptLedger(let named, _) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(named == path)
        }
        // Nor does recording overwrite it.
        #expect(try String(contentsOfFile: path, encoding: .utf8) == content)
    }

    @Test func concurrentWritersLoseNothing() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // Each writer has its own ledger object, as separate processes would.
        let writers = 4, each = 15
        let failures = Failures()
        DispatchQueue.concurrentPerform(iterations: writers) { w in
            do {
                let ledger = try ImportLedger(cameraKey: "cam", folder: folder)
                for i in 0..<each { try ledger.record([entry(w * 100 + i)], sequence: w * 100 + i) }
            } catch {
                failures.add(error)
            }
        }
        #expect(failures.isEmpty)
        let ledger = try ImportLedger(cameraKey: "cam", folder: folder)
        #expect(ledger.entries.count == writers * each)
        #expect(ledger.sequence == (writers - 1) * 100 + each - 1)
    }

    @Test func theLedgerIsWrittenAsTheWholeDocumentEncodesWhenEntriesAreKeptBetweenWrites() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // A camera name with the field's own name and quotes in it: the entries still go in their field.
        let key = #"cam "entries":[] \ é"#
        let ledger = try ImportLedger(cameraKey: key, folder: folder)
        try ledger.record([entry(1), entry(2, path: "/a \"quoted\" path")], sequence: 2)
        try ledger.saveShift(3600)
        // An entry replaced, one added: the kept JSON of the replaced one is not written again.
        try ledger.record([entry(2, path: "/moved"), entry(3)], sequence: 3)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: ledger.path))
        var document = LedgerDocument(camera: key)
        document.sequence = 3
        document.shift = 3600
        document.entries = ledger.entries
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        #expect(bytes == (try encoder.encode(document)) + Data([0x0A]))
        #expect(ledger.entries.map(\.path) == ["/x", "/moved", "/x"])
        let again = try ImportLedger(cameraKey: key, folder: folder)
        #expect(again.entries == ledger.entries && again.shift == 3600)
    }

    @Test func aWriteByAnotherProcessBetweenTwoRecordsIsKept() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let one = try ImportLedger(cameraKey: "cam", folder: folder)
        try one.record([entry(1)], sequence: 1)
        // Another process (another ledger object) records in between: this one's next record reads it.
        let other = try ImportLedger(cameraKey: "cam", folder: folder)
        try other.record([entry(2)], sequence: 2)
        try one.record([entry(3)], sequence: 3)
        let after = try ImportLedger(cameraKey: "cam", folder: folder)
        #expect(Set(after.entries.map(\.name)) == ["IMG_1.JPG", "IMG_2.JPG", "IMG_3.JPG"])
        #expect(after.sequence == 3)
    }

    /// A ledger opened from its file records without reading it again, unless another process wrote it
    /// after it was opened: that write is kept.
    @Test func aWriteByAnotherProcessBetweenOpeningAndTheFirstRecordIsKept() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try ImportLedger(cameraKey: "cam", folder: folder).record([entry(1)], sequence: 1)
        let opened = try ImportLedger(cameraKey: "cam", folder: folder)
        try ImportLedger(cameraKey: "cam", folder: folder).record([entry(2)], sequence: 2)
        try opened.record([entry(3)], sequence: 3)
        let after = try ImportLedger(cameraKey: "cam", folder: folder)
        #expect(Set(after.entries.map(\.name)) == ["IMG_1.JPG", "IMG_2.JPG", "IMG_3.JPG"])
        // Unchanged since it was opened: its own record keeps what it read, and adds.
        let again = try ImportLedger(cameraKey: "cam", folder: folder)
        try again.record([entry(4)], sequence: 4)
        #expect(try ImportLedger(cameraKey: "cam", folder: folder).entries.count == 4)
    }

    @Test func oneRunAtATimePerCamera() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let ledger = try ImportLedger(cameraKey: "cam", folder: folder)
        let run = try ledger.beginRun()
        #expect(throws: ImportError.ledgerBusy(path: ledger.path + ".run")) { _ = try ledger.beginRun() }
        run.end()
        try ledger.beginRun().end()
    }

    @Test func cameraKeys() {
        #expect(LedgerLocation.cameraKey(manufacturer: "Canon", model: "EOS R6", serialNumber: "0123ab", storageLabel: "SD1")
            == "Canon EOS R6 0123ab")
        // No serial number (or a blank one): the model and the store's label.
        for blank in ["", "   ", "0000000000", "-"] {
            #expect(LedgerLocation.cameraKey(manufacturer: "DJI", model: "Mini", serialNumber: blank, storageLabel: "SD card")
                == "DJI Mini store SD card")
        }
        let a = LedgerLocation.fileName(for: "DJI Mini store SD/card")
        let b = LedgerLocation.fileName(for: "DJI Mini store SD_card")
        #expect(a != b)
        #expect(!a.contains("/") && a.hasSuffix(".json") && !a.hasPrefix("."))
        #expect(LedgerLocation.folder(environment: ["XDG_DATA_HOME": "/d"]) == "/d/mediashell/imports")
        #expect(LedgerLocation.folder(environment: ["HOME": "/h"]) == "/h/.local/share/mediashell/imports")
        #expect(LedgerLocation.folder(environment: ["HOME": "/h", "XDG_DATA_HOME": "relative"]) == "/h/.local/share/mediashell/imports")
    }

    /// libcrypto's SHA-256 and libxxhash's XXH3-128 through our wrappers give the digests sha256sum and
    /// `xxhsum -H2` print, fed at once or in odd pieces, and a digest taken midway does not end the hash.
    @Test(arguments: [
        (Checksum.Algorithm.sha256, [
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
        ]),
        (Checksum.Algorithm.xxh128, [
            "99aa06d3014798d86001c324468d497f", "06b05ab6733a618578af5f94892f3950", "a545df8e384a9579b1fd6fae5285c4eb",
        ]),
    ])
    func checksumsMatchTheStandardTools(algorithm: Checksum.Algorithm, digests: [String]) {
        let hash = algorithm.makeHasher()
        #expect(hash.hexDigest() == digests[0], "nothing")
        hash.update(Array("abc".utf8))
        #expect(hash.hexDigest() == digests[1], "abc")
        let long = Array(repeating: UInt8(ascii: "a"), count: 1_000_000)
        let pieces = algorithm.makeHasher()
        var i = 0
        while i < long.count {
            let n = min(long.count - i, 1 + (i % 97))
            pieces.update(Array(long[i..<i + n]))
            i += n
        }
        #expect(pieces.hexDigest() == digests[2], "a million a's in pieces")
    }
}

final class Failures: Sendable {
    private let errors = Locked<[any Error]>([])
    func add(_ e: any Error) { errors.withLock { $0.append(e) } }
    var isEmpty: Bool { errors.withLock { $0.isEmpty } }
}

@Suite struct LedgerLocalErrorTests {
    /// The system call failure a `.local` carries, nil for any other case.
    func localFailure(_ error: ImportError?) -> SystemError? {
        if case .local(let failure) = error { return failure }
        return nil
    }

    @Test func aLedgerUnderAFileIsALocalErrorNamingTheCallAndThePath() throws {
        let folder = try temporaryFolder("ledger-blocked")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        _ = FileManager.default.createFile(atPath: folder + "/file", contents: Data([1]))
        let error = #expect(throws: ImportError.self) { try ImportLedger(path: folder + "/file/ledger.json", cameraKey: "cam") }
        let failure = try #require(localFailure(error), "not a local error: \(String(describing: error))")
        #expect(failure.call == .open && failure.errno == ENOTDIR && failure.path == folder + "/file/ledger.json")
        #expect(error?.category == .localIO)
    }

    @Test func aLedgerFolderTakenByAFileIsALocalErrorWhenRecording() throws {
        let folder = try temporaryFolder("ledger-taken")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let ledger = try ImportLedger(path: folder + "/sub/ledger.json", cameraKey: "cam")
        _ = FileManager.default.createFile(atPath: folder + "/sub", contents: Data([1]))
        let error = #expect(throws: ImportError.self) { try ledger.record([], sequence: 3) }
        let failure = try #require(localFailure(error), "not a local error: \(String(describing: error))")
        #expect(failure.call == .mkdir && failure.errno == EEXIST && failure.path == folder + "/sub")
        #expect(error?.category == .alreadyExists)
    }

    @Test func aLedgerOverTheLimitIsRefusedAsALocalError() throws {
        let folder = try temporaryFolder("ledger-dir")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // A folder where the ledger should be: open succeeds, read fails with EISDIR.
        try FileManager.default.createDirectory(atPath: folder + "/ledger.json", withIntermediateDirectories: true)
        let error = #expect(throws: ImportError.self) { try ImportLedger(path: folder + "/ledger.json", cameraKey: "cam") }
        let failure = try #require(localFailure(error), "not a local error: \(String(describing: error))")
        #expect(failure.call == .read && failure.errno == EISDIR)
    }
}
