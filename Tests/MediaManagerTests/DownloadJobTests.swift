import Failures
import Foundation
import POSIX
import PTP
import TestSupport
import Testing
@testable import MediaManager

/// A remote file in memory, read by range like a camera would answer GetPartialObject.
final class FakeRemote: @unchecked Sendable {
    let bytes: [UInt8]
    var requests: [(UInt64, Int)] = []
    /// Fail the request that starts at or past this offset (a dropped connection).
    var failAt: UInt64?

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func read(_ offset: UInt64, _ count: Int, _ sink: DataSink) throws -> Int {
        requests.append((offset, count))
        if let failAt, offset + UInt64(count) > failAt {
            let partial = Int(failAt - min(failAt, offset))
            if partial > 0 { try bytes[Int(offset)..<Int(offset) + partial].withUnsafeBytes { try sink.write($0) } }
            throw PTPError.connectionClosed(.hungUp(peer: "the test's camera", moment: nil))
        }
        let end = min(bytes.count, Int(offset) + count)
        try sink.begin(expectedLength: UInt64(end - Int(offset)))
        try bytes[Int(offset)..<end].withUnsafeBytes { try sink.write($0) }
        return end - Int(offset)
    }
}

/// A new empty folder for one test. All of them live in one folder per test process, removed when the
/// process exits, so no test has to remember to (thousands were left in /tmp before).
func temporaryFolder() throws -> String {
    let path = testFoldersRoot + "/msh-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

private let testFoldersRoot: String = {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("msh-tests-\(getpid())").path
    atexit { removeTestFolders() }
    return root
}()

private func removeTestFolders() { try? FileManager.default.removeItem(atPath: testFoldersRoot) }

func randomBytes(_ count: Int) -> [UInt8] {
    var random = SeededRandom(test: "download bytes \(count)")
    return random.bytes(count)
}

@Suite struct DownloadJobTests {
    func job(_ remote: FakeRemote, _ folder: String, name: String = "DJI_0001.MP4", chunk: Int = 1000) -> DownloadJob {
        var options = DownloadJob.Options()
        options.chunkSize = chunk
        return DownloadJob(remoteName: name, size: UInt64(remote.bytes.count), destinationFolder: folder, localName: name, options: options)
    }

    @Test func downloadsWholeAndLeavesNoPart() throws {
        let folder = try temporaryFolder()
        let remote = FakeRemote(randomBytes(10_500))
        let outcome = try job(remote, folder).run(read: remote.read)
        #expect(outcome == .downloaded(path: folder + "/DJI_0001.MP4", bytes: 10_500, resumedFrom: 0))
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/DJI_0001.MP4"))) == remote.bytes)
        #expect(!FileManager.default.fileExists(atPath: folder + "/DJI_0001.MP4.part"))
        #expect(remote.requests.count == 11)
    }

    /// The first bytes read already (an import reads them for the date) are written, not asked again: the
    /// requests start after them; a `.part` shorter than them is written over from byte 0, a longer one
    /// is continued from its end.
    @Test func firstBytesInHandAreWrittenAndNeverAskedAgain() throws {
        let remote = FakeRemote(randomBytes(10_500))
        for (kept, firstRequest, resumedFrom) in [(0, 2_500, 0), (1_000, 2_500, 0), (6_000, 6_000, 6_000)] {
            let folder = try temporaryFolder()
            if kept > 0 {
                // What an earlier attempt kept (with its record); junk where it is written over.
                let part = kept < 2_500 ? [UInt8](repeating: 0xEE, count: kept) : Array(remote.bytes.prefix(kept))
                try writeKeptPart(part, at: folder + "/DJI_0001.MP4.part", of: job(remote, folder).source)
            }
            remote.requests = []
            var download = job(remote, folder)
            download.options.firstBytes = Array(remote.bytes.prefix(2_500))
            #expect(download.startsFromFirstBytes(kept: UInt64(kept)) == (kept < 2_500))
            let outcome = try download.run(read: remote.read)
            #expect(outcome == .downloaded(path: folder + "/DJI_0001.MP4", bytes: 10_500, resumedFrom: UInt64(resumedFrom)))
            #expect(Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/DJI_0001.MP4"))) == remote.bytes)
            // A kept .part is proven first: one request for its last 4 KiB, then the download's.
            let downloadRequests = kept > 2_500 ? Array(remote.requests.dropFirst()) : remote.requests
            if kept > 2_500 { #expect(remote.requests.first.map { [$0.0, UInt64($0.1)] } == [UInt64(kept - 4_096), 4_096]) }
            #expect(downloadRequests.first?.0 == UInt64(firstRequest), "kept \(kept): \(remote.requests)")
        }
        // A whole file in hand costs no request at all.
        let folder = try temporaryFolder()
        remote.requests = []
        var download = job(remote, folder)
        download.options.firstBytes = remote.bytes
        _ = try download.run(read: remote.read)
        #expect(remote.requests.isEmpty)
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/DJI_0001.MP4"))) == remote.bytes)
    }

    @Test func aDroppedConnectionKeepsThePartAndTheNextRunResumesFromIt() throws {
        let folder = try temporaryFolder()
        let remote = FakeRemote(randomBytes(10_500))
        remote.failAt = 4_321
        #expect(throws: DownloadError.self) { try job(remote, folder).run(read: remote.read) }
        #expect(!FileManager.default.fileExists(atPath: folder + "/DJI_0001.MP4"))
        let partSize = try FileManager.default.attributesOfItem(atPath: folder + "/DJI_0001.MP4.part")[.size] as? Int
        #expect(partSize == 4_321)
        remote.failAt = nil
        remote.requests = []
        let outcome = try job(remote, folder).run(read: remote.read)
        #expect(outcome == .downloaded(path: folder + "/DJI_0001.MP4", bytes: 10_500, resumedFrom: 4_321))
        // The kept bytes proven by one small request where they end, then the rest.
        #expect(remote.requests.first.map { [$0.0, UInt64($0.1)] } == [4_321 - 4_096, 4_096])
        #expect(remote.requests.dropFirst().first?.0 == 4_321)
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/DJI_0001.MP4"))) == remote.bytes)
    }

    @Test func cancellationStopsWithinOneChunkAndKeepsThePart() throws {
        let folder = try temporaryFolder()
        let remote = FakeRemote(randomBytes(10_000))
        let flag = Cancellation()
        let seen = LockedBox(0)
        let error = #expect(throws: DownloadError.self) {
            try job(remote, folder).run(read: { offset, count, sink in
                let n = try remote.read(offset, count, sink)
                if seen.increment() == 3 { flag.cancel() }
                return n
            }, cancellation: flag)
        }
        #expect(error?.failureCategory == .cancelled)
        #expect(error?.cancelledAt == 3000)
        guard case .interrupted(_, let path, _, _, let cause) = error else { Issue.record("not interrupted"); return }
        #expect(path == folder + "/DJI_0001.MP4")
        #expect(cause is CancellationError)
        #expect(remote.requests.count == 3)
        let outcome = try job(remote, folder).run(read: remote.read)
        #expect(outcome == .downloaded(path: folder + "/DJI_0001.MP4", bytes: 10_000, resumedFrom: 3000))
    }

    @Test func aDeviceFailureKeepsItsCauseAndItsCategory() throws {
        let folder = try temporaryFolder()
        let remote = FakeRemote(randomBytes(10_000))
        let error = #expect(throws: DownloadError.self) {
            try job(remote, folder).run(read: { offset, count, sink in
                if offset > 0 { throw PTPError.response(.deviceBusy, operation: .getPartialObject, transaction: nil) }
                return try remote.read(offset, count, sink)
            })
        }
        // A busy camera stays busy through the download's error: the shell's hint switches on this.
        #expect(error?.failureCategory == .busy)
        #expect(error?.cancelledAt == nil)
        guard case .interrupted(_, _, let at, let size, let cause as PTPError) = error else {
            Issue.record("not interrupted by the device: \(String(describing: error))")
            return
        }
        #expect(cause.responseCode == .deviceBusy)
        #expect(at > 0 && size == 10_000)
    }

    @Test func neverOverwritesWithoutForceAndOnlyNewSkipsSameSize() throws {
        let folder = try temporaryFolder()
        let remote = FakeRemote(randomBytes(2000))
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: folder + "/DJI_0001.MP4"))
        #expect(throws: DownloadError.exists(path: folder + "/DJI_0001.MP4")) { try job(remote, folder).run(read: remote.read) }
        #expect(remote.requests.isEmpty)
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/DJI_0001.MP4")) == Data([1, 2, 3]))

        var forced = job(remote, folder)
        forced.options.overwrite = true
        _ = try forced.run(read: remote.read)
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/DJI_0001.MP4"))) == remote.bytes)

        remote.requests = []
        var onlyNew = job(remote, folder)
        onlyNew.options.onlyNew = true
        #expect(try onlyNew.run(read: remote.read) == .skippedExisting(path: folder + "/DJI_0001.MP4"))
        #expect(remote.requests.isEmpty)
    }

    /// A name the caller found free is not looked up again before the download; a file that appears there
    /// while it runs (another program, another fetch) is kept, untouched, and the download stays whole in
    /// its `.part`: the rename refuses to replace it.
    @Test func aFileThatAppearsAtAFoundNameDuringTheDownloadIsNeverReplaced() throws {
        let folder = try temporaryFolder()
        let destination = folder + "/DJI_0001.MP4"
        let remote = FakeRemote(randomBytes(3000))
        var found = job(remote, folder)
        found.options.nameFound = true
        let intruding: RangeReader = { offset, count, sink in
            if offset == 0 { try Data([4, 5]).write(to: URL(fileURLWithPath: destination)) }
            return try remote.read(offset, count, sink)
        }
        #expect(throws: DownloadError.exists(path: destination)) { try found.run(read: intruding) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: destination)) == Data([4, 5]))
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: destination + ".part"))) == remote.bytes)

        // Without the caller's word, a file already there is refused before anything is asked for.
        remote.requests = []
        #expect(throws: DownloadError.exists(path: destination)) { try job(remote, folder).run(read: remote.read) }
        #expect(remote.requests.isEmpty)
    }

    @Test func aShortDeviceIsASizeMismatchNotACorruptFile() throws {
        let folder = try temporaryFolder()
        let remote = FakeRemote(randomBytes(1500))
        let lying = DownloadJob(remoteName: "X", size: 4000, destinationFolder: folder, localName: "X")
        #expect(throws: DownloadError.self) { try lying.run(read: remote.read) }
        #expect(!FileManager.default.fileExists(atPath: folder + "/X"))
        #expect(FileManager.default.fileExists(atPath: folder + "/X.part"))
    }

    @Test func aSymlinkPlantedAtThePartNameIsNotFollowed() throws {
        let folder = try temporaryFolder()
        let target = folder + "/target"
        try Data([9]).write(to: URL(fileURLWithPath: target))
        try FileManager.default.createSymbolicLink(atPath: folder + "/DJI_0001.MP4.part", withDestinationPath: target)
        let remote = FakeRemote(randomBytes(100))
        #expect(throws: DownloadError.self) { try job(remote, folder).run(read: remote.read) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == Data([9]))
    }

    @Test func progressReportsBytesAndEnds() throws {
        let folder = try temporaryFolder()
        let remote = FakeRemote(randomBytes(5000))
        let reports = LockedBox<[TransferProgress]>([])
        _ = try job(remote, folder).run(read: remote.read, progress: { reports.append($0) })
        #expect(reports.value.first?.bytesDone == 0)
        #expect(reports.value.last?.bytesDone == 5000)
        #expect(reports.value.last?.fraction == 1)
    }
}



@Suite struct LocalDownloadErrorTests {
    @Test func aPartThatCannotBeMadeIsALocalErrorWithTheCallThePathAndTheErrno() throws {
        let folder = try temporaryFolder()
        let blocked = folder + "/not-a-folder"
        _ = FileManager.default.createFile(atPath: blocked, contents: Data([1]))
        let remote = FakeRemote(randomBytes(100))
        let job = DownloadJob(remoteName: "A.JPG", size: 100, destinationFolder: blocked, localName: "A.JPG", options: .init())
        let error = #expect(throws: DownloadError.self) { try job.run(read: remote.read) }
        guard case .local(let failure) = error else {
            Issue.record("not a local error: \(String(describing: error))")
            return
        }
        #expect(failure.call == .open && failure.errno == ENOTDIR && failure.path == blocked + "/A.JPG.part")
        #expect(error?.category == .localIO)
    }
}
