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

    /// A batch of this suite: the card of `layout` opened as a folder, its first `count` files by name
    /// with their sizes, and a fresh destination.
    struct Batch {
        let card: CardFolder
        let session: MediaSession
        let files: [MediaFile]
        let sizes: [String: Int]
        let destination: String

        init(first count: Int = GroupCommitTests.layout.count) throws {
            card = try CardFolder(GroupCommitTests.layout)
            session = try MediaSession.open(.folder(path: card.path))
            try session.catalog.ensureLoaded()
            files = Array(session.catalog.allFiles().filter { !$0.isFolder }.sorted { $0.name < $1.name }.prefix(count))
            sizes = Dictionary(uniqueKeysWithValues: files.map { ($0.name, Int($0.size)) })
            destination = try temporaryFolder()
        }

        /// Fetch options committing groups of four files, each sync recording into `views` what it saw
        /// when it began (after `beforeLooking`, told whether this sync is the first).
        func optionsRecordingSyncs(
            into views: LockedBox<[SyncView]>, beforeLooking: @escaping @Sendable (_ firstSync: Bool) -> Void = { _ in }
        ) -> MediaSession.FetchOptions {
            let (sizes, caller) = (sizes, pthread_self())
            var options = MediaSession.FetchOptions()
            options.commits = GroupCommitter.Policy(
                files: 4, bytes: 1 << 40, maximumWait: .infinity,
                sync: { folder in
                    beforeLooking(views.value.isEmpty)
                    views.append(GroupCommitTests.look(folder, sizes: sizes, caller: caller))
                })
            return options
        }
    }

    @Test func aBatchIsSyncedOncePerGroupAndEachFileIsPlacedOnlyAfterItsSync() throws {
        let batch = try Batch()
        defer { batch.session.close() }
        let (files, destination) = (batch.files, batch.destination)
        let views = LockedBox<[SyncView]>([])
        let reported = LockedBox<[String]>([])
        let results = try batch.session.fetch(
            files, to: destination, options: batch.optionsRecordingSyncs(into: views),
            each: { reported.append($0.file.name) })

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
            #expect(Array(try Data(contentsOf: URL(fileURLWithPath: destination + "/" + file.name))) == batch.card.files[file.path])
        }
        #expect(results.allSatisfy { if case .success(.downloaded) = $0.outcome { true } else { false } })
        #expect(reported.value == names)
    }

    @Test func theDownloadGoesOnWhileAGroupIsSynced() throws {
        let batch = try Batch()
        defer { batch.session.close() }
        let (files, destination) = (batch.files, batch.destination)
        let last = try #require(files.last)
        let lastArrived = Mailbox<Bool>()
        let views = LockedBox<[SyncView]>([])
        // The first sync holds on until the batch's last file has arrived whole: it can only if the
        // download does not wait for the sync.
        let options = batch.optionsRecordingSyncs(into: views) { firstSync in
            if firstSync { _ = lastArrived.take(timeout: 30) }
        }
        let results = try batch.session.fetch(
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
        let batch = try Batch(first: 3)
        defer { batch.session.close() }
        let (files, destination) = (batch.files, batch.destination)
        let views = LockedBox<[SyncView]>([])
        _ = try batch.session.fetch(files, to: destination, options: batch.optionsRecordingSyncs(into: views))
        #expect(views.value.count == 1)
        #expect(views.value.first?.onCaller == true)
        #expect(views.value.first?.whole == Set(files.map(\.name)))
        #expect(try FileManager.default.contentsOfDirectory(atPath: destination).sorted() == files.map(\.name))
    }

    @Test func aGroupClosesAtItsByteBound() throws {
        let batch = try Batch()
        defer { batch.session.close() }
        let syncs = LockedBox(0)
        var options = MediaSession.FetchOptions()
        // Each file is over 3,000 bytes: a bound of 6,000 closes a group every second file.
        options.commits = GroupCommitter.Policy(
            files: 1000, bytes: 6_000, maximumWait: .infinity, sync: { _ in syncs.increment() })
        let results = try batch.session.fetch(batch.files, to: batch.destination, options: options)
        #expect(syncs.value == 5)
        #expect(results.allSatisfy { if case .success(.downloaded) = $0.outcome { true } else { false } })
    }
}
