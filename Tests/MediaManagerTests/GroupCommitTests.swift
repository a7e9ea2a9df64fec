import Connectors
import Foundation
import POSIX
import TestSupport
import Testing
@testable import MediaManager

/// How a batch fetch makes its files durable (`GroupCommitter`): one filesystem sync per group of files,
/// each file renamed into place only after a sync that began once it was whole, the syncs running beside
/// the download, the results reported in order.
@Suite struct GroupCommitTests {
    /// Ten files of distinct sizes (so distinct bytes) in one camera folder.
    static let layout = Dictionary(uniqueKeysWithValues: (1...10).map { ("DCIM/100MEDIA/IMG_\(1000 + $0).JPG", 3_000 + 17 * $0) })

    /// What one sync saw in the destination when it began.
    struct SyncView: Sendable {
        var placed: Set<String>  // final names
        var whole: Set<String>  // `.part` files holding all their bytes (named without `.part`)
        var onCaller: Bool
    }

    static func look(_ folder: String, sizes: [String: Int], caller: pthread_t) -> SyncView {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        var view = SyncView(placed: [], whole: [], onCaller: pthread_equal(pthread_self(), caller) != 0)
        for name in names {
            if name.hasSuffix(".part") {
                let final = String(name.dropLast(5))
                if let size = sizes[final], LocalDisk.size(folder + "/" + name) == UInt64(size) { view.whole.insert(final) }
            } else {
                view.placed.insert(name)
            }
        }
        return view
    }

    @Test func aBatchIsSyncedOncePerGroupAndEachFileIsPlacedOnlyAfterItsSync() throws {
        let card = try CardFolder(Self.layout)
        let session = try MediaSession.open(.folder(path: card.path))
        defer { session.close() }
        try session.catalog.ensureLoaded()
        let files = session.catalog.allFiles().filter { !$0.isFolder }.sorted { $0.name < $1.name }
        let sizes = Dictionary(uniqueKeysWithValues: files.map { ($0.name, Int($0.size)) })
        let destination = try temporaryFolder()
        let views = LockedBox<[SyncView]>([])
        let caller = pthread_self()
        var options = MediaSession.FetchOptions()
        options.commits = GroupCommitter.Policy(
            files: 4, bytes: 1 << 40, maximumWait: .infinity,
            sync: { folder in views.append(Self.look(folder, sizes: sizes, caller: caller)) })
        let reported = LockedBox<[String]>([])
        let results = try session.fetch(files, to: destination, options: options, each: { reported.append($0.file.name) })

        // Groups of 4, 4 and 2: three syncs (not one per file, not one per batch).
        let seen = views.value
        #expect(seen.count == 3)
        let names = files.map(\.name)
        let groups = [Array(names[0..<4]), Array(names[4..<8]), Array(names[8..<10])]
        for (index, view) in seen.enumerated() where index < groups.count {
            // Every file of the group is whole in its .part when its sync begins, and not yet in place...
            #expect(Set(groups[index]).isSubset(of: view.whole), "sync \(index + 1): \(view.whole.sorted())")
            // ...and exactly the groups synced before are in place.
            #expect(view.placed == Set(groups[..<index].joined()), "sync \(index + 1): \(view.placed.sorted())")
        }
        // Once the batch returns, every file is in place with its bytes, no .part is left, and each result
        // was reported once, in order.
        #expect(try FileManager.default.contentsOfDirectory(atPath: destination).sorted() == names)
        for file in files {
            #expect(Array(try Data(contentsOf: URL(fileURLWithPath: destination + "/" + file.name))) == card.files[file.path])
        }
        #expect(results.allSatisfy { if case .success(.downloaded) = $0.outcome { true } else { false } })
        #expect(reported.value == names)
    }

    @Test func theDownloadGoesOnWhileAGroupIsSynced() throws {
        let card = try CardFolder(Self.layout)
        let session = try MediaSession.open(.folder(path: card.path))
        defer { session.close() }
        try session.catalog.ensureLoaded()
        let files = session.catalog.allFiles().filter { !$0.isFolder }.sorted { $0.name < $1.name }
        let sizes = Dictionary(uniqueKeysWithValues: files.map { ($0.name, Int($0.size)) })
        let last = try #require(files.last)
        let destination = try temporaryFolder()
        let lastArrived = Mailbox<Bool>()
        let views = LockedBox<[SyncView]>([])
        let caller = pthread_self()
        var options = MediaSession.FetchOptions()
        options.commits = GroupCommitter.Policy(
            files: 4, bytes: 1 << 40, maximumWait: .infinity,
            sync: { folder in
                // The first sync holds on until the batch's last file has arrived whole: it can only if the
                // download does not wait for the sync.
                if views.value.isEmpty { _ = lastArrived.take(timeout: 30) }
                views.append(Self.look(folder, sizes: sizes, caller: caller))
            })
        let results = try session.fetch(
            files, to: destination, options: options,
            progress: { p in if p.name == last.name && p.bytesDone == p.totalBytes { lastArrived.put(true) } })
        let seen = views.value
        #expect(seen.count == 3)
        // During the first sync all ten files were whole and none in place, and it ran off the caller's thread.
        #expect(seen.first?.whole == Set(files.map(\.name)))
        #expect(seen.first?.placed == [])
        #expect(seen.first?.onCaller == false)
        #expect(results.allSatisfy { if case .success(.downloaded) = $0.outcome { true } else { false } })
        #expect(try FileManager.default.contentsOfDirectory(atPath: destination).sorted() == files.map(\.name))
    }

    @Test func aBatchOfOneGroupSyncsOnceOnTheCallersThread() throws {
        let card = try CardFolder(Self.layout)
        let session = try MediaSession.open(.folder(path: card.path))
        defer { session.close() }
        try session.catalog.ensureLoaded()
        let files = Array(session.catalog.allFiles().filter { !$0.isFolder }.sorted { $0.name < $1.name }.prefix(3))
        let sizes = Dictionary(uniqueKeysWithValues: files.map { ($0.name, Int($0.size)) })
        let destination = try temporaryFolder()
        let views = LockedBox<[SyncView]>([])
        let caller = pthread_self()
        var options = MediaSession.FetchOptions()
        options.commits = GroupCommitter.Policy(
            files: 4, bytes: 1 << 40, maximumWait: .infinity,
            sync: { folder in views.append(Self.look(folder, sizes: sizes, caller: caller)) })
        _ = try session.fetch(files, to: destination, options: options)
        #expect(views.value.count == 1)
        #expect(views.value.first?.onCaller == true)
        #expect(views.value.first?.whole == Set(files.map(\.name)))
        #expect(try FileManager.default.contentsOfDirectory(atPath: destination).sorted() == files.map(\.name))
    }

    @Test func aGroupClosesAtItsByteBound() throws {
        let card = try CardFolder(Self.layout)
        let session = try MediaSession.open(.folder(path: card.path))
        defer { session.close() }
        try session.catalog.ensureLoaded()
        let files = session.catalog.allFiles().filter { !$0.isFolder }.sorted { $0.name < $1.name }
        let syncs = LockedBox(0)
        var options = MediaSession.FetchOptions()
        // Each file is over 3,000 bytes: a bound of 6,000 closes a group every second file.
        options.commits = GroupCommitter.Policy(
            files: 1000, bytes: 6_000, maximumWait: .infinity, sync: { _ in syncs.increment() })
        let results = try session.fetch(files, to: try temporaryFolder(), options: options)
        #expect(syncs.value == 5)
        #expect(results.allSatisfy { if case .success(.downloaded) = $0.outcome { true } else { false } })
    }
}
