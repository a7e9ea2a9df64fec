import Checksums
import Failures
import Foundation
import POSIX
import PTP
import TestSupport
import Testing
@testable import MediaManager

/// The resumes a `.part` must survive (issue 41): each ends byte-identical to the camera's file, continued
/// only where the kept bytes are proven to be this file's, otherwise started again with the reason said.
/// `count` bytes of their own for `label`.
private func seeded(_ label: String, _ count: Int) -> [UInt8] {
    var random = SeededRandom(test: label)
    return random.bytes(count)
}

@Suite struct PartProofTests {
    let name = "DJI_0006.MP4"
    let camera = "DJI / FC3411 / 0123"
    /// A card's clip as the camera lists it.
    func source(_ size: Int, camera: String? = nil, captured: Double = 1_714_557_600) -> PartRecord.Source {
        PartRecord.Source(
            camera: camera ?? self.camera, storage: 0x0001_0001, handle: 6, folder: "DCIM/100MEDIA", name: name,
            size: UInt64(size), captured: Date(timeIntervalSince1970: captured))
    }

    func job(_ remote: FakeRemote, _ folder: String, source: PartRecord.Source, sidecar: Bool = false) -> DownloadJob {
        var options = DownloadJob.Options()
        options.chunkSize = 1_000
        options.recordsInSidecar = sidecar
        return DownloadJob(
            remoteName: name, size: UInt64(remote.bytes.count), destinationFolder: folder, localName: name, options: options,
            source: source)
    }

    func downloaded(_ folder: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))) }

    /// Runs until `failAt`, leaving a `.part` with its record, as Ctrl-C or a dropped link does.
    func interrupt(_ remote: FakeRemote, _ folder: String, at failAt: UInt64, source: PartRecord.Source, sidecar: Bool = false) {
        remote.failAt = failAt
        #expect(throws: DownloadError.self) { try job(remote, folder, source: source, sidecar: sidecar).run(read: remote.read) }
        remote.failAt = nil
        remote.requests = []
    }

    func complete(_ remote: FakeRemote, _ folder: String, source: PartRecord.Source, sidecar: Bool = false) throws -> CompletedPart {
        let result = try job(remote, folder, source: source, sidecar: sidecar).transfer(read: remote.read, syncToDisk: true)
        guard case .complete(let part) = result else { throw DownloadError.exists(path: folder) }
        _ = try part.commit()
        return part
    }

    /// Two cards' clips of one name, size and date: the `.part` card A left is not card B's, whatever its
    /// name says. Both cards in one drone (one camera): the camera's bytes where the part ends differ.
    @Test func aPartOfAnotherFileWithTheSameNameSizeAndDateStartsAgain() throws {
        let folder = try temporaryFolder()
        let cardA = FakeRemote(seeded("card A", 20_000))
        let cardB = FakeRemote(seeded("card B", 20_000))
        interrupt(cardA, folder, at: 8_000, source: source(20_000))
        let part = try complete(cardB, folder, source: source(20_000))
        #expect(part.restart == .cameraDiffers && part.setAside == 8_000 && part.resumedFrom == 0)
        #expect(try downloaded(folder) == cardB.bytes)
        #expect(part.checksum == { let h = PartRecord.algorithm.makeHasher(); h.update(cardB.bytes); return h.checksum() }())
    }

    /// The same, from two cameras (two card folders, two bodies): their identities differ, and nothing is
    /// asked of the camera to see it.
    @Test func aPartFromAnotherCameraStartsAgainWithoutARequest() throws {
        let folder = try temporaryFolder()
        let cardA = FakeRemote(seeded("card A", 20_000))
        let cardB = FakeRemote(seeded("card B", 20_000))
        interrupt(cardA, folder, at: 8_000, source: source(20_000, camera: "mediashell / card folder / DIR-aaaa"))
        let part = try complete(cardB, folder, source: source(20_000, camera: "mediashell / card folder / DIR-bbbb"))
        #expect(part.restart == .otherObject(differences: ["camera"]))
        #expect(cardB.requests.allSatisfy { $0.0 % 1_000 == 0 && $0.1 == 1_000 }, "\(cardB.requests)")
        #expect(try downloaded(folder) == cardB.bytes)
    }

    /// A `.part` longer than the object: not a part of it, with or without a record.
    @Test func aPartLongerThanTheObjectStartsAgain() throws {
        let remote = FakeRemote(seeded("clip", 5_000))
        for recorded in [false, true] {
            let folder = try temporaryFolder()
            let longer = seeded("longer", 9_000)
            if recorded {
                try writeKeptPart(longer, at: folder + "/\(name).part", of: source(9_000))
            } else {
                try Data(longer).write(to: URL(fileURLWithPath: folder + "/\(name).part"))
            }
            let part = try complete(remote, folder, source: source(5_000))
            #expect(part.restart == (recorded ? PartRestart.otherObject(differences: ["size"]) : PartRestart.noRecord))
            #expect(part.setAside == 9_000)
            #expect(try downloaded(folder) == remote.bytes)
        }
    }

    /// Bytes of the `.part` changed on disk between runs (a bad sector, another program): its record no
    /// longer proves them.
    @Test func aPartWhoseBytesChangedOnDiskStartsAgain() throws {
        let folder = try temporaryFolder()
        let remote = FakeRemote(seeded("clip", 20_000))
        interrupt(remote, folder, at: 8_000, source: source(20_000))
        let fd = open(folder + "/\(name).part", O_WRONLY)
        var flipped: UInt8 = remote.bytes[3_000] ^ 0xFF
        #expect(pwrite(fd, &flipped, 1, 3_000) == 1)
        close(fd)
        let part = try complete(remote, folder, source: source(20_000))
        #expect(part.restart == .changedOnDisk)
        #expect(try downloaded(folder) == remote.bytes)
    }

    /// A `.part` without a record (an older mediashell, another program, a crash before its first record)
    /// is never trusted by its name, even when its bytes happen to be right.
    @Test func aPartWithoutARecordStartsAgain() throws {
        let folder = try temporaryFolder()
        let remote = FakeRemote(seeded("clip", 20_000))
        try Data(remote.bytes.prefix(8_000)).write(to: URL(fileURLWithPath: folder + "/\(name).part"))
        let part = try complete(remote, folder, source: source(20_000))
        #expect(part.restart == .noRecord && part.resumedFrom == 0)
        #expect(try downloaded(folder) == remote.bytes)
    }

    /// The camera's file replaced between runs by one of the same name, size and date (formatted, shot
    /// again): the one small request where the kept bytes end tells.
    @Test func theCamerasFileReplacedBetweenRunsStartsAgain() throws {
        let folder = try temporaryFolder()
        let before = FakeRemote(seeded("first take", 20_000))
        interrupt(before, folder, at: 12_345, source: source(20_000))
        var bytes = before.bytes
        for i in 10_000..<20_000 { bytes[i] ^= 0x5A }  // the same start (a header), other footage after
        let after = FakeRemote(bytes)
        let part = try complete(after, folder, source: source(20_000))
        #expect(part.restart == .cameraDiffers && part.setAside == 12_345)
        #expect(try downloaded(folder) == after.bytes)
    }

    /// What is proven is continued, for the price of one request of 4 KiB; the record goes when the file
    /// is whole (an attribute would travel with it through the rename). In a sidecar too, as on a memory
    /// card's FAT, removed with the `.part`.
    @Test(arguments: [false, true]) func aProvenPartIsContinuedForOneSmallRequest(sidecar: Bool) throws {
        let folder = try temporaryFolder()
        let remote = FakeRemote(seeded("clip", 20_000))
        interrupt(remote, folder, at: 8_500, source: source(20_000), sidecar: sidecar)
        let partPath = folder + "/\(name).part"
        #expect(FileManager.default.fileExists(atPath: PartRecord.sidecarPath(of: partPath)) == sidecar)
        let part = try complete(remote, folder, source: source(20_000), sidecar: sidecar)
        #expect(part.restart == nil && part.resumedFrom == 8_500)
        #expect(remote.requests.first.map { [$0.0, UInt64($0.1)] } == [8_500 - 4_096, 4_096])
        #expect(remote.requests.count == 1 + 12)  // the check, then 11.5 chunks of 1,000
        #expect(try downloaded(folder) == remote.bytes)
        #expect(!FileManager.default.fileExists(atPath: PartRecord.sidecarPath(of: partPath)))
        let fd = open(folder + "/\(name)", O_RDONLY)
        defer { close(fd) }
        #expect(try LocalDisk.extendedAttribute(fd, PartRecord.attribute, path: name) == nil)
    }

    /// A record that covers fewer bytes than the `.part` holds (a crash between a write and the next
    /// record): the bytes past it are not proven, and are fetched again.
    @Test func bytesPastTheRecordAreFetchedAgain() throws {
        let folder = try temporaryFolder()
        let remote = FakeRemote(seeded("clip", 20_000))
        var kept = Array(remote.bytes.prefix(9_000))
        for i in 7_000..<9_000 { kept[i] = 0 }  // written as the machine went down
        try writeKeptPart(kept, at: folder + "/\(name).part", of: source(20_000), recordedBytes: 7_000)
        let part = try complete(remote, folder, source: source(20_000))
        #expect(part.restart == nil && part.resumedFrom == 7_000)
        #expect(try downloaded(folder) == remote.bytes)
    }

    /// Killed (`kill -9`, a crash) in the middle of a long first request, nothing stops the download to
    /// record it: the record is kept once a second while bytes arrive, within a request too, from the
    /// first second on (a file that comes within a second writes none).
    @Test func theRecordIsKeptOnceASecondWithinARequest() throws {
        let folder = try temporaryFolder()
        let remote = FakeRemote(seeded("clip", 20_000))
        let clock = ManualWaitClock()
        var first = job(remote, folder, source: source(20_000))
        first.options.chunkSize = 20_000  // one request for the whole file, arriving in pieces
        first.options.recordClock = clock
        let partPath = folder + "/\(name).part"
        func recorded() -> UInt64? {
            let fd = open(partPath, O_RDONLY)
            defer { close(fd) }
            return PartRecordStore(partPath: partPath).load(fd)?.bytes
        }
        var seen: [UInt64?] = []
        struct Killed: Error {}
        #expect(throws: DownloadError.self) {
            try first.run(read: { offset, count, sink in
                for piece in 0..<3 {
                    try remote.bytes[(piece * 2_000)..<(piece * 2_000 + 2_000)].withUnsafeBytes { try sink.write($0) }
                    seen.append(recorded())
                    clock.pause(0.6)
                }
                throw Killed()
            })
        }
        // Nothing in the first second; at 1.2 s the 6,000 bytes written by then.
        #expect(seen == [nil, nil, 6_000])
    }

    /// A large file is first recorded once 512 KiB arrived, whatever the time: a `kill -9` soon after the
    /// start of a fast download still leaves bytes a later run can prove.
    @Test func aLargeFileIsFirstRecordedAfterItsFirst512KiB() throws {
        let folder = try temporaryFolder()
        let remote = FakeRemote(seeded("large clip", 2 << 20))
        var first = job(remote, folder, source: source(2 << 20))
        first.options.chunkSize = 2 << 20
        first.options.recordClock = ManualWaitClock()  // time stands still
        let partPath = folder + "/\(name).part"
        var seen: [UInt64?] = []
        struct Killed: Error {}
        #expect(throws: DownloadError.self) {
            try first.run(read: { offset, count, sink in
                for piece in 0..<4 {
                    let range = (piece << 18)..<((piece + 1) << 18)  // 256 KiB each
                    try remote.bytes[range].withUnsafeBytes { try sink.write($0) }
                    let fd = open(partPath, O_RDONLY)
                    seen.append(PartRecordStore(partPath: partPath).load(fd)?.bytes)
                    close(fd)
                }
                throw Killed()
            })
        }
        #expect(seen == [nil, 512 << 10, 512 << 10, 512 << 10])
    }

    /// `offset N` moves a proven resume back: the download goes on from N with the hash of N bytes.
    @Test func anOffsetMovesAProvenResumeBack() throws {
        let folder = try temporaryFolder()
        let remote = FakeRemote(seeded("clip", 20_000))
        interrupt(remote, folder, at: 9_000, source: source(20_000))
        var rewound = job(remote, folder, source: source(20_000))
        rewound.options.startOffset = 2_000
        guard case .complete(let part) = try rewound.transfer(read: remote.read, syncToDisk: true) else {
            Issue.record("not complete")
            return
        }
        _ = try part.commit()
        #expect(part.resumedFrom == 2_000 && part.restart == nil)
        #expect(try downloaded(folder) == remote.bytes)
        let whole = PartRecord.algorithm.makeHasher()
        whole.update(remote.bytes)
        #expect(part.checksum == whole.checksum())
    }

    /// A camera that cannot answer the check keeps the `.part` as it was: nothing proven, nothing lost.
    @Test func aCheckTheCameraCannotAnswerLeavesThePartAsItWas() throws {
        let folder = try temporaryFolder()
        let remote = FakeRemote(seeded("clip", 20_000))
        interrupt(remote, folder, at: 8_000, source: source(20_000))
        let before = try Data(contentsOf: URL(fileURLWithPath: folder + "/\(name).part"))
        let error = #expect(throws: DownloadError.self) {
            try job(remote, folder, source: source(20_000)).run(read: { _, _, _ in
                throw PTPError.connectionClosed(.hungUp(peer: "the test's camera", moment: nil))
            })
        }
        #expect(error?.failureCategory == .disconnected)
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/\(name).part")) == before)
        _ = try complete(remote, folder, source: source(20_000))
        #expect(try downloaded(folder) == remote.bytes)
    }
}
