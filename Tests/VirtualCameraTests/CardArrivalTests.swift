import Foundation
import POSIX
import PTP
import TestSupport
import Testing

@testable import VirtualCamera

/// A watched card folder hands a file over (puts it in the tree, sends ObjectAdded) only when it is whole:
/// a file still being copied in is held back until its writer closes it (inotify's IN_CLOSE_WRITE) or, where
/// inotify says nothing, until it has stopped changing. Every wait is on an event, with a bound.
@Suite struct CardArrivalTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder("vcam-arrivals")
        try FileManager.default.createDirectory(atPath: folder.path + "/DCIM/100MEDIA", withIntermediateDirectories: true)
    }

    /// The ObjectAdded events a card sends, as they come.
    private func addedEvents(of card: Card) -> Mailbox<UInt32> {
        let added = Mailbox<UInt32>()
        _ = card.subscribe { event in
            if event.code == .objectAdded { added.put(event.parameter(0)) }
        }
        return added
    }

    /// A file opened for writing at its final name, as `cp` or a card reader's copy makes it.
    private struct Writer {
        let fd: Int32
        init(_ path: String) throws {
            fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            if fd < 0 { throw SystemError(.open, path: path, errno: errno) }
        }
        func write(_ bytes: ArraySlice<UInt8>) {
            let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            #expect(written == bytes.count)
        }
        func close() { _ = Glibc.close(fd) }
    }

    @Test func aFileStillBeingWrittenIsHandedOverOnlyWhenItsWriterClosesIt() throws {
        let card = try Card(folder: folder.path)
        let added = addedEvents(of: card)
        let held = Mailbox<String>()
        card.onHeldBack { held.put($0) }
        card.startWatching(interval: 3600, settle: 3600, inotify: true)
        defer { card.stopWatching() }

        let bytes = patternBytes(256 << 10, seed: 12)
        let writer = try Writer(folder.path + "/DCIM/100MEDIA/CLIP.MP4")
        writer.write(bytes[..<(128 << 10)])
        // A listing's refresh sees the half-written file and holds it back; so does the watcher's full scan.
        #expect(card.refresh(full: false).added.isEmpty)
        #expect(held.take(where: { $0 == "DCIM/100MEDIA/CLIP.MP4" }) != nil, "the scan did not see the file")
        #expect(card.refresh().added.isEmpty)
        #expect(card.handle(forPath: "DCIM/100MEDIA/CLIP.MP4") == nil, "a file still being written was handed over")

        writer.write(bytes[(128 << 10)...])
        writer.close()
        // Closed: the watcher hears it from inotify and hands it over at once (its full scans are an hour apart).
        let handle = try #require(added.take(timeout: 10), "the whole file was never handed over")
        #expect(card.path(of: handle) == "DCIM/100MEDIA/CLIP.MP4")
        #expect(card.object(handle)?.size == UInt64(bytes.count), "handed over before it was whole")
        #expect(added.take(timeout: 0) == nil, "announced twice")
    }

    @Test func aFileRenamedInIsWholeAtOnce() throws {
        let card = try Card(folder: folder.path)
        card.startWatching(interval: 3600, settle: 3600, inotify: true)
        defer { card.stopWatching() }
        try Data(patternBytes(10_000, seed: 3)).write(to: URL(fileURLWithPath: folder.path + "/DCIM/.copying"))
        try FileManager.default.moveItem(atPath: folder.path + "/DCIM/.copying", toPath: folder.path + "/DCIM/100MEDIA/A.JPG")
        // A listing's refresh has it (or the watcher, hearing of the rename, handed it over just before).
        card.refresh(full: false)
        #expect(card.handle(forPath: "DCIM/100MEDIA/A.JPG").flatMap { card.object($0)?.size } == 10_000)
    }

    /// Where inotify says nothing (a network share written by another machine): a new file is handed over
    /// once two scans found it the same, `settle` seconds apart (0 here, so the test needs no clock).
    @Test func withoutInotifyAFileIsHandedOverOnceItStopsChanging() throws {
        let card = try Card(folder: folder.path)
        card.startWatching(interval: 3600, settle: 0, inotify: false)
        defer { card.stopWatching() }
        let bytes = patternBytes(64 << 10, seed: 5)
        let writer = try Writer(folder.path + "/DCIM/100MEDIA/B.JPG")
        writer.write(bytes[..<1000])
        #expect(card.refresh().added.isEmpty, "first seen: it may still grow")
        writer.write(bytes[1000...])
        #expect(card.refresh().added.isEmpty, "it grew since")
        writer.close()
        let change = card.refresh()
        #expect(change.added.count == 1, "unchanged between two scans")
        #expect(change.added.first.flatMap { card.object($0)?.size } == UInt64(bytes.count))
    }

    /// Files are held back only while the card is watched: a card nobody watches lists what is there.
    @Test func aCardNotWatchedListsWhatIsThere() throws {
        let card = try Card(folder: folder.path)
        let writer = try Writer(folder.path + "/DCIM/100MEDIA/C.JPG")
        defer { writer.close() }
        writer.write(patternBytes(1000, seed: 1)[...])
        #expect(card.refresh().added.count == 1)
    }
}

/// Bytes that differ from offset to offset (a moved or dropped chunk shows).
private func patternBytes(_ count: Int, seed: Int) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: ($0 &* 131 &+ seed &* 7) ^ ($0 >> 9)) }
}
