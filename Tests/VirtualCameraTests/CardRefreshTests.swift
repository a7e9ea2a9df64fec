import POSIX
import Foundation
import PTP
import TestSupport
import Testing
@testable import VirtualCamera

/// Refreshes of a folder card (the watcher thread's, and the quick ones before each listing) run one after
/// another, so a scan made before a change can never be applied after a scan that saw it.
@Suite struct CardRefreshTests {
    /// The race that was: refresh A scans (no X yet), X appears, refresh B scans and adds X, then A applies
    /// its stale scan and removes X, and the next refresh re-adds it under a new handle.
    @Test func aStaleScanCannotRemoveAFileThatANewerRefreshAdded() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vcam-refresh-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("DCIM"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let card = try Card(folder: folder.path)
        let newFile = folder.appendingPathComponent("DCIM/NEW.JPG")
        let otherDone = Mailbox<Void>()
        let first = FirstCall()
        card.onScanListed {
            guard first.take() else { return }
            try? Data([1, 2, 3]).write(to: newFile)
            Thread {
                card.refresh()
                otherDone.put(())
            }.start()
            // Before the fix the other refresh ran to its end here; now it waits for this one, so this
            // wait runs out (bounded) and this refresh goes on first.
            if otherDone.take(timeout: 1) != nil { otherDone.put(()) }
        }
        card.refresh()
        #expect(otherDone.take(timeout: 30) != nil)
        card.onScanListed(nil)
        let handle = card.handle(forPath: "DCIM/NEW.JPG")
        #expect(handle != nil, "a stale scan removed the new file")
        card.refresh()
        #expect(card.handle(forPath: "DCIM/NEW.JPG") == handle, "the file's handle changed")
    }

    /// The watcher's scan (lowest priority, a stat per file) gives up when a session's refresh waits for
    /// it: the session's listing goes first and sees the change; the background scan applies nothing.
    @Test func aBackgroundScanGivesWayToAWaitingRefresh() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vcam-yield-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("DCIM"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let card = try Card(folder: folder.path)
        let waiting = Mailbox<Void>()
        let otherDone = Mailbox<Void>()
        let added = Locked<[UInt32]>([])
        let first = FirstCall()
        card.onScanTurnWanted { waiting.put(()) }
        card.onScanListed {
            guard first.take() else { return }
            try? Data([1, 2, 3]).write(to: folder.appendingPathComponent("DCIM/NEW.JPG"))
            Thread {
                let result = card.refresh()
                added.withLock { $0 = result.added }
                otherDone.put(())
            }.start()
            #expect(waiting.take(timeout: 30) != nil)
        }
        #expect(card.backgroundRefresh() == nil, "the background scan did not give up")
        #expect(otherDone.take(timeout: 30) != nil)
        card.onScanListed(nil)
        card.onScanTurnWanted(nil)
        let handle = try #require(card.handle(forPath: "DCIM/NEW.JPG"))
        #expect(added.withLock { $0 } == [handle])
        #expect(card.backgroundRefresh()?.added == [])
    }
}

/// True for the first caller only.
private final class FirstCall: Sendable {
    private let taken = Locked(false)
    func take() -> Bool {
        taken.withLock { taken in
            defer { taken = true }
            return !taken
        }
    }
    /// A quick refresh takes an unchanged folder's entries from the tree, not the disk: when another folder
    /// changed, the unchanged one keeps every file under its handle, and only the change is applied.
    @Test func aQuickRefreshKeepsTheUnchangedFoldersAndAppliesTheChangedOne() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vcam-quick-\(UUID().uuidString)")
        let fm = FileManager.default
        for sub in ["DCIM/100MEDIA/DEEP", "DCIM/101MEDIA"] {
            try fm.createDirectory(at: folder.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
        defer { try? fm.removeItem(at: folder) }
        for name in ["DCIM/100MEDIA/A.JPG", "DCIM/100MEDIA/DEEP/B.JPG", "DCIM/101MEDIA/C.JPG"] {
            try Data([1]).write(to: folder.appendingPathComponent(name))
        }
        let card = try Card(folder: folder.path)
        let before = ["DCIM/100MEDIA/A.JPG", "DCIM/100MEDIA/DEEP/B.JPG", "DCIM/101MEDIA/C.JPG"].map { card.handle(forPath: $0) }
        #expect(!before.contains(nil))
        #expect(card.refresh(full: false).added.isEmpty, "nothing changed, nothing added")
        try Data([2]).write(to: folder.appendingPathComponent("DCIM/101MEDIA/D.JPG"))
        try fm.removeItem(at: folder.appendingPathComponent("DCIM/101MEDIA/C.JPG"))
        let change = card.refresh(full: false)
        #expect(change.added.count == 1)
        #expect(change.removed == [before[2]!])
        #expect(card.handle(forPath: "DCIM/100MEDIA/A.JPG") == before[0])
        #expect(card.handle(forPath: "DCIM/100MEDIA/DEEP/B.JPG") == before[1])
        #expect(card.handle(forPath: "DCIM/101MEDIA/D.JPG") == change.added.first)
        #expect(card.handle(forPath: "DCIM/101MEDIA/C.JPG") == nil)
    }
}
