import Foundation
import PTP
import TestSupport
import Testing
import VirtualCamera
@testable import MediaManager

#if canImport(Glibc)
import Glibc
#endif

/// Files of 4 GiB and more: the 32-bit ObjectInfo size saturates, offsets need GetPartialObject64.
/// Slow (writes and checks 4.5 GiB), so it runs in `scripts/test`'s slow step (MEDIASHELL_SLOW_TESTS=1).
@Suite(.enabled(if: ProcessInfo.processInfo.environment["MEDIASHELL_SLOW_TESTS"] == "1"))
struct LargeFileTests {
    @Test func aFileLargerThanFourGiBServedSparselyArrivesWhole() throws {
        let size: UInt64 = (4 << 30) + (512 << 20) + 12_345
        let card = Card(inMemoryLabel: "big")
        card.add(name: "DJI_0100.MP4", in: "DCIM/100MEDIA", content: .generated(length: size))
        let camera = VirtualCamera(card: card)
        let (initiator, responder) = InMemoryTransport.makePair(chunkSize: 1 << 20, timeout: 30)
        let done = Mailbox<Void>()
        Thread { camera.serve(responder); done.put(()) }.start()
        let session = MediaSession(camera: try Camera(transport: initiator, location: "sim:big"), url: .simulator(path: nil))
        defer {
            session.close()
            _ = done.take(timeout: 10)
        }
        try session.catalog.ensureLoaded()
        let file = try #require(session.catalog.file(atPath: "DCIM/100MEDIA/DJI_0100.MP4"))
        #expect(file.size == size)
        let destination = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: destination) }
        let results = try session.fetch([file], to: destination)
        #expect(try results[0].outcome.get() == .downloaded(path: destination + "/DJI_0100.MP4", bytes: size, resumedFrom: 0))

        // Every byte, compared with memcmp against the pattern regenerated for each 8 MiB window.
        let fd = open(destination + "/DJI_0100.MP4", O_RDONLY)
        #expect(fd >= 0)
        defer { close(fd) }
        let window = 8 << 20
        let got = UnsafeMutableRawBufferPointer.allocate(byteCount: window, alignment: 8)
        let want = UnsafeMutableRawBufferPointer.allocate(byteCount: window, alignment: 8)
        defer {
            got.deallocate()
            want.deallocate()
        }
        var offset: UInt64 = 0
        var mismatchAt: UInt64?
        while offset < size {
            let n = pread(fd, got.baseAddress, window, off_t(offset))
            guard n > 0 else { break }
            fillGenerated(UnsafeMutableRawBufferPointer(rebasing: want[0..<n]), from: offset)
            if memcmp(got.baseAddress!, want.baseAddress!, n) != 0 {
                mismatchAt = offset
                break
            }
            offset += UInt64(n)
        }
        #expect(offset == size)
        #expect(mismatchAt == nil)
    }
}
