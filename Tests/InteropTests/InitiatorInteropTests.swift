import Foundation
import MediaFormats
import POSIX
import PTP
import PTPIP
import TestSupport
import Testing

/// Our own PTP/IP initiator against `mediashell serve` (the built binary), doing what gphoto2 does.
@Suite(.tags(.port), .notInFastRun) struct InitiatorInteropTests {
    final class Collector: DataSink {
        var bytes: [UInt8] = []
        func begin(expectedLength: UInt64?) throws {}
        func write(_ chunk: UnsafeRawBufferPointer) throws { bytes.append(contentsOf: chunk) }
    }

    final class Events: Sendable {
        private let events = LockedCondition<[PTPEvent]>([])
        func record(_ e: PTPEvent) {
            events.change { $0.append(e) }
        }
        func wait(for code: EventCode, timeout: TimeInterval = 10) -> [PTPEvent] {
            _ = events.wait(until: .after(timeout)) { $0.contains { $0.code == code } }
            return events.withLock { $0 }
        }
    }

    func connect(_ server: ServeProcess) throws -> PTPSession {
        let transport = try PTPIPInitiator.connect(host: "127.0.0.1", port: server.port, name: "interop-test")
        let session = PTPSession(transport: transport)
        try session.open()
        return session
    }

    /// Path → handle for every file, walking folders with GetObjectPropList (one request per folder).
    func listing(_ session: PTPSession) throws -> [String: UInt32] {
        var result: [String: UInt32] = [:]
        var queue: [(String, UInt32)] = [("", 0)]
        while let (path, handle) = queue.popLast() {
            for (h, props) in try session.getObjectPropList(handle: handle, depth: 1).byObject() {
                let name = try #require(props[.objectFileName]?.stringValue)
                let child = path.isEmpty ? name : path + "/" + name
                if props[.objectFormat]?.unsignedValue == UInt64(ObjectFormatCode.association.rawValue) {
                    queue.append((child, h))
                } else {
                    result[child] = h
                }
            }
        }
        return result
    }

    @Test func listsDownloadsThumbnailsDeletesAndCaptures() throws {
        let fixture = try Gphoto2InteropTests.Fixture(bigFile: true)
        let demo = BuildProducts.packageRoot.appendingPathComponent("Sources/VirtualCamera/DemoMedia/photo_landscape.jpg").path
        let photo = Array(try Data(contentsOf: URL(fileURLWithPath: demo)))
        try Data(photo).write(to: URL(fileURLWithPath: fixture.card + "/DCIM/100MEDIA/DJI_0001.JPG"))
        fixture.files["DCIM/100MEDIA/DJI_0001.JPG"] = photo
        let server = try ServeProcess(arguments: ["--writable", fixture.card])
        defer { _ = server.stop() }
        let session = try connect(server)
        defer { session.close() }
        let events = Events()
        session.setEventHandler { events.record($0) }

        #expect(session.deviceInfo.manufacturer == "mediashell")
        let storages = try session.getStorageIDs()
        #expect(storages.count == 1)
        #expect(try session.getStorageInfo(storages[0]).maxCapacity > 0)

        let files = try listing(session)
        #expect(Set(files.keys) == Set(fixture.files.keys))
        // Per-object listing (GetObjectHandles + GetObjectInfo) agrees.
        let all = try session.getObjectHandles(storage: 0xFFFF_FFFF, parent: 0)
        let names = try all.map { try session.getObjectInfo($0).filename }
        for path in fixture.files.keys { #expect(names.contains(URL(fileURLWithPath: path).lastPathComponent)) }

        for (path, handle) in files {
            let sink = Collector()
            try session.getObject(handle, into: sink)
            #expect(sink.bytes == fixture.files[path], "\(path)")
        }
        let big = try #require(files["DCIM/101MEDIA/DJI_0011.MP4"])
        let part = Collector()
        try session.getPartialObject(big, offset: 50_000_000, count: 1_000_000, into: part)
        #expect(part.bytes[...] == fixture.files["DCIM/101MEDIA/DJI_0011.MP4"]![50_000_000..<51_000_000])

        let thumb = try session.getThumb(try #require(files["DCIM/100MEDIA/DJI_0001.JPG"]))
        let expected = try JPEGReader().thumbnail(from: MemoryByteSource(photo))
        #expect(thumb == expected)

        try session.deleteObject(try #require(files["DCIM/100MEDIA/DJI_0002.SRT"]))
        #expect(!FileManager.default.fileExists(atPath: fixture.card + "/DCIM/100MEDIA/DJI_0002.SRT"))
        #expect(events.wait(for: .objectRemoved).contains { $0.code == .objectRemoved })

        try session.initiateCapture()
        let seen = events.wait(for: .captureComplete)
        let added = try #require(seen.first { $0.code == .objectAdded })
        let addedIndex = try #require(seen.firstIndex { $0.code == .objectAdded })
        let completeIndex = try #require(seen.firstIndex { $0.code == .captureComplete })
        #expect(addedIndex < completeIndex)
        let info = try session.getObjectInfo(added.parameter(0))
        #expect(info.filename == "IMG_0001.JPG")
        #expect(FileManager.default.fileExists(atPath: fixture.card + "/DCIM/101MEDIA/IMG_0001.JPG"))
    }
}
