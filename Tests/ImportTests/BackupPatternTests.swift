import Connectors
import Foundation
import MediaManager
import POSIX
import TestSupport
import Testing
@testable import Import

/// `import --backup PATTERN`: a backup named by a pattern of its own (the tokens of `--to`, with the values
/// the first copy's took), still from one read of the camera; a clash in its layout numbered as the first
/// copy's are; a copy the backup missed completed later where its pattern says, from the proven first copy.
@Suite(.tags(.process), .notInFastRun) struct BackupPatternTests: BackupSuite {
    let card: CardOnDisk

    init() throws {
        card = try Self.cardWithBackup()
    }

    /// A run to the card's pictures and to `pattern` under the backup folder.
    func patternOptions(_ pattern: String, _ change: (inout ImportRun.Options) -> Void = { _ in }) throws -> ImportRun.Options {
        let target = try BackupTarget(backup + "/" + pattern)
        return options {
            $0.backups = [target]
            change(&$0)
        }
    }

    /// The path of `name`'s copy under `root`, the ledger says.
    func copy(of name: String, under root: String, _ session: MediaSession) throws -> String? {
        try ledgerEntries(session).first { $0.name == name }?.allCopies.first { $0.hasPrefix(root + "/") }
    }

    @Test func textWithATokenIsAPatternAndWithoutOneAFolder() throws {
        #expect(try BackupTarget("/mnt/b") == BackupTarget(folder: "/mnt/b"))
        #expect(try BackupTarget("/mnt/100%%").pattern == nil, "an escaped % is no token")
        let target = try BackupTarget("/mnt/b/%c/%Y/%f")
        #expect(target.root == "/mnt/b" && target.pattern?.text == "/mnt/b/%c/%Y/%f")
        #expect(throws: ImportError.self) { try BackupTarget("/mnt/b/%Q") }
    }

    @Test func eachCopyGoesWhereTheBackupsOwnPatternSays() throws {
        let session = try MediaSession.open(.folder(path: card.card))
        defer { session.close() }
        let outcome = try runImport(card, session: session, run: try patternOptions("%F/%b.%e"))
        #expect(outcome.summary.failed == 0 && outcome.summary.missingCopies.isEmpty)
        #expect(outcome.summary.bytes == outcome.plan.items.reduce(0) { $0 + $1.file.size }, "one read of the camera")
        let entries = try ledgerEntries(session)
        #expect(entries.count == outcome.summary.fetched && !entries.isEmpty)
        for entry in entries {
            let copies = entry.allCopies
            #expect(copies.count == 2 && entry.missing == nil, "\(entry)")
            // The first copy by date; the backup's by the card's folder and the name.
            #expect(copies[0].hasPrefix(card.pictures + "/2024/"))
            #expect(copies[1] == backup + "/" + entry.folder.split(separator: "/").last! + "/" + entry.name)
            #expect(FileManager.default.contentsEqual(atPath: copies[0], andPath: copies[1]))
        }
        // The backup's manifest is at the pattern's folder and checks out.
        let manifest = try #require(outcome.summary.manifests.first { $0.hasPrefix(backup + "/") })
        #expect((manifest as NSString).deletingLastPathComponent == backup)
        if ExternalTool.find("xxhsum") != nil {
            let checked = try ManifestTests.check((manifest as NSString).lastPathComponent, in: backup)
            #expect(checked.status == 0, "\(checked.output)")
        }
    }

    @Test func twoFilesThePatternNamesAlikeKeepBothNumberedAsTheFirstCopysAre() throws {
        // The same name in two card folders: flat in the backup, the second gets `NAME (2).JPG`.
        try card.add("DCIM/101MEDIA/DJI_0002.JPG", patternedBytes(30_000, seed: 9))
        let session = try MediaSession.open(.folder(path: card.card))
        defer { session.close() }
        let outcome = try runImport(card, session: session, run: try patternOptions("%f"))
        #expect(outcome.summary.failed == 0 && outcome.summary.missingCopies.isEmpty)
        let copies = try ledgerEntries(session).filter { $0.name == "DJI_0002.JPG" }.map { $0.allCopies }
        #expect(copies.count == 2 && copies.allSatisfy { $0.count == 2 }, "\(copies)")
        guard copies.allSatisfy({ $0.count == 2 }) else { return }
        #expect(Set(copies.map { $0[1] }) == [backup + "/DJI_0002.JPG", backup + "/DJI_0002 (2).JPG"])
        for pair in copies { #expect(FileManager.default.contentsEqual(atPath: pair[0], andPath: pair[1]), "\(pair)") }
    }

    @Test func aCopyTheBackupMissedIsCompletedLaterWhereItsPatternSays() throws {
        // The backup's disk is full from the start of the third write on: most files miss it.
        let writes = Locked(0)
        let run = try patternOptions("%Y/%F/%f") {
            $0.backupWriter = BackupWriter { descriptor, bytes, offset, partPath throws(SystemError) in
                let full = writes.withLock { count in
                    if offset == 0 { count += 1 }
                    return count > 2
                }
                if full { throw SystemError(.write, path: partPath, errno: ENOSPC) }
                try BackupWriter.disk.write(descriptor, bytes, offset, partPath)
            }
        }
        let session = try MediaSession.open(.folder(path: card.card))
        defer { session.close() }
        let first = try runImport(card, session: session, run: run)
        #expect(first.summary.stoppedDestinations.count == 1 && !first.summary.missingCopies.isEmpty)
        let again = try runImport(card, session: session, run: try patternOptions("%Y/%F/%f"))
        #expect(again.summary.bytes == 0 && again.summary.completedCopies == first.summary.missingCopies.count)
        for entry in try ledgerEntries(session) {
            let folder = entry.folder.split(separator: "/").last!
            let wanted = backup + "/2024/" + folder + "/" + entry.name
            #expect(try copy(of: entry.name, under: backup, session) == wanted, "\(entry.name)")
            #expect(entry.missing == nil && FileManager.default.contentsEqual(atPath: entry.allCopies[0], andPath: wanted))
        }
    }
}
