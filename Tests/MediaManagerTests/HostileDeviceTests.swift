import Failures
import Foundation
import MediaFormats
import POSIX
import PTP
import Testing
@testable import MediaManager

/// A device that lies: a scripted responder over the in-memory transport, answering just enough PTP to
/// be opened, listed and read, with names, sizes and timing chosen by the test.
final class HostileDevice: @unchecked Sendable {
    struct Object {
        var name: String
        /// What the listing claims.
        var listedSize: UInt64
        /// What a read actually returns.
        var content: [UInt8]
        /// The format code it is listed with (EXIF/JPEG when nil).
        var format: UInt16? = nil
    }

    let objects: [Object]
    /// GetPartialObject requests at or past this offset are never answered (the device hangs).
    var hangAtOffset: UInt64?
    /// Answer each GetPartialObject with this many extra bytes beyond what was asked.
    var extraBytes = 0
    /// An object of this name is a folder the device refuses to list.
    var unlistableFolder: String?
    /// How many GetPartialObject requests arrived.
    var partialReads: Int { partialReadCount.withLock { $0 } }
    private let partialReadCount = Locked(0)
    let responder: InMemoryResponder
    let initiator: InMemoryInitiator

    init(_ objects: [Object], timeout: TimeInterval = 2) {
        self.objects = objects
        (initiator, responder) = InMemoryTransport.makePair(chunkSize: 4096, timeout: timeout)
        let thread = Thread { [self] in run() }
        thread.start()
    }

    func openSession() throws -> MediaSession {
        MediaSession(camera: try Camera(transport: initiator, location: "hostile:"), url: .simulator(path: nil))
    }

    private func run() {
        while let incoming = try? responder.receiveCommand() {
            let c = incoming.command
            var data: [UInt8]?
            var code = ResponseCode.ok
            var params: [UInt32] = []
            switch c.code {
            case .getDeviceInfo:
                var info = DeviceInfo()
                info.operationsSupported = [.getDeviceInfo, .openSession, .closeSession, .getStorageIDs, .getStorageInfo,
                                            .getObjectPropList, .getObjectInfo, .getPartialObject, .deleteObject]
                info.model = "Liar"
                data = info.encoded()
            case .openSession, .closeSession:
                break
            case .getStorageIDs:
                var w = PTPWriter()
                w.uint32Array([0x0001_0001])
                data = w.bytes
            case .getStorageInfo:
                data = StorageInfo().encoded()
            case .getObjectPropList:
                guard c.parameter(0) == 0 else {
                    let index = Int(c.parameter(0)) - 1
                    if objects.indices.contains(index), objects[index].name == unlistableFolder {
                        code = .accessDenied
                    } else {
                        data = ObjectPropList().encoded()
                    }
                    break
                }
                var elements: [ObjectPropList.Element] = []
                for (i, o) in objects.enumerated() {
                    let h = UInt32(i + 1)
                    elements.append(.init(handle: h, property: .objectFileName, value: .string(o.name)))
                    elements.append(.init(handle: h, property: .objectFormat, value: .uint16(o.name == unlistableFolder ? 0x3001 : o.format ?? 0x3801)))
                    elements.append(.init(handle: h, property: .objectSize, value: .uint64(o.listedSize)))
                    elements.append(.init(handle: h, property: .storageID, value: .uint32(0x0001_0001)))
                    elements.append(.init(handle: h, property: .parentObject, value: .uint32(0)))
                }
                data = ObjectPropList(elements).encoded()
            case .getObjectInfo:
                let index = Int(c.parameter(0)) - 1
                guard objects.indices.contains(index) else { code = .invalidObjectHandle; break }
                var info = ObjectInfo()
                info.storageID = 0x0001_0001
                info.filename = objects[index].name
                info.format = objects[index].name == unlistableFolder
                    ? .association : ObjectFormatCode(objects[index].format ?? 0x3801)
                info.compressedSize = UInt32(clamping: objects[index].listedSize)
                data = info.encoded()
            case .getPartialObject:
                partialReadCount.withLock { $0 += 1 }
                let index = Int(c.parameter(0)) - 1
                guard objects.indices.contains(index) else { code = .invalidObjectHandle; break }
                let offset = UInt64(c.parameter(1))
                if let hang = hangAtOffset, offset >= hang { continue }  // never answer
                let content = objects[index].content
                let start = min(Int(offset), content.count)
                let end = min(content.count, start + Int(c.parameter(2)) + extraBytes)
                data = Array(content[start..<end])
                params = [UInt32(end - start)]
            default:
                code = .operationNotSupported
            }
            if let data { try? responder.sendData(transactionID: c.transactionID, source: BufferSource(data)) }
            try? responder.sendResponse(PTPResponse(code, transactionID: c.transactionID, parameters: params))
        }
    }
}

@Suite struct HostileDeviceTests {
    func names(in folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    }

    @Test func hostileNamesNeverEscapeTheDestination() throws {
        let outer = try temporaryFolder()
        let destination = outer + "/inside"
        let evil = ["../../x", "a/b", "..", ".", "\u{1B}[31mred\u{7}", "nul\u{0}byte", "A.JPG", "A.JPG", "a.jpg", ".profile", ""]
        let device = HostileDevice(evil.map { .init(name: $0, listedSize: 3, content: [1, 2, 3]) })
        let session = try device.openSession()
        defer { session.close() }
        try session.catalog.ensureLoaded()
        let files = session.catalog.allFiles()
        #expect(files.count == evil.count)
        let results = try session.fetch(files, to: destination)
        for r in results {
            if case .failure(let e) = r.outcome { Issue.record("\(r.file.name): \(e)") }
        }
        // Everything landed inside, under distinct safe names, and nothing else appeared next to it.
        #expect(try names(in: outer) == ["inside"])
        let landed = try names(in: destination)
        #expect(landed.count == evil.count)
        #expect(landed.allSatisfy { !$0.hasPrefix(".") && !$0.contains("/") && $0.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F } })
        #expect(!FileManager.default.fileExists(atPath: outer + "/x"))
    }

    @Test func anUnknownFormatIsOneWarningNamingTheObjectOncePerSessionAndTheFileStaysReadable() throws {
        let device = HostileDevice([
            .init(name: "BLOB", listedSize: 3, content: [7, 8, 9], format: 0xB0FF),
            .init(name: "C0001.CR2", listedSize: 3, content: [1, 2, 3], format: 0xB103),
            .init(name: "A.JPG", listedSize: 3, content: [1, 2, 3]),
        ])
        let session = try device.openSession()
        defer { session.close() }
        try session.catalog.ensureLoaded()
        let warnings = session.catalog.takeWarnings()
        // A vendor code on a name that tells the kind (a Canon raw) is no news; one on a name that says nothing is.
        #expect(warnings.count == 1, "\(warnings)")
        #expect(warnings.first?.hasPrefix("/BLOB: the camera gives its format as 0xB0FF") == true, "\(warnings)")
        #expect(session.catalog.state == .upToDate)
        let blob = try #require(session.catalog.file(atPath: "BLOB"))
        #expect(try session.byteSource(for: blob).read(offset: 0, count: 3) == [7, 8, 9])
        // Said once per object: a reload lists it again, silently.
        try session.catalog.reload()
        #expect(session.catalog.file(atPath: "BLOB") != nil)
        #expect(session.catalog.takeWarnings().isEmpty)
    }

    /// Kinds from content are read for the files shown, at most `filesPerListing` per listing, and once.
    @Test func contentChecksAreBoundedPerListingAndCached() throws {
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + [UInt8](repeating: 0, count: 12)
        let count = ContentCheck.filesPerListing + 8
        let device = HostileDevice((0..<count).map { .init(name: "F\($0)", listedSize: 16, content: jpeg, format: 0x3000) })
        let session = try device.openSession()
        defer { session.close() }
        try session.catalog.ensureLoaded()
        let files = try #require(session.catalog.contents(of: ""))
        #expect(files.count == count)
        #expect(files.allSatisfy { $0.kind == .other })
        let first = session.contentCheck.described(files, session: session)
        #expect(first.filter { $0.kind == .jpeg }.count == ContentCheck.filesPerListing)
        #expect(device.partialReads == ContentCheck.filesPerListing)
        let second = session.contentCheck.described(files, session: session)
        #expect(second.allSatisfy { $0.kind == .jpeg })
        #expect(device.partialReads == count, "the first ones were not read again")
    }

    @Test func aFolderTheDeviceRefusesToListLeavesTheCatalogIncomplete() throws {
        let device = HostileDevice([.init(name: "DCIM", listedSize: 0, content: []), .init(name: "A.JPG", listedSize: 3, content: [1, 2, 3])])
        device.unlistableFolder = "DCIM"
        let session = try device.openSession()
        defer { session.close() }
        try session.catalog.ensureLoaded()
        #expect(session.catalog.state == .incomplete)
        #expect(session.catalog.file(atPath: "A.JPG") != nil)
        // A change the device reports is fetched, and that does not make the listing whole.
        session.catalog.apply(.changed(2))
        try session.catalog.applyPendingChanges()
        #expect(session.catalog.file(atPath: "A.JPG") != nil)
        #expect(session.catalog.state == .incomplete)
    }

    @Test func aDeviceThatSendsLessThanItListedGivesASizeErrorAndKeepsThePart() throws {
        let destination = try temporaryFolder()
        let device = HostileDevice([.init(name: "SHORT.MP4", listedSize: 10_000, content: [UInt8](repeating: 7, count: 6_000))])
        let session = try device.openSession()
        defer { session.close() }
        try session.catalog.ensureLoaded()
        let results = try session.fetch(session.catalog.allFiles(), to: destination)
        #expect(throws: DownloadError.self) { try results[0].outcome.get() }
        #expect(!FileManager.default.fileExists(atPath: destination + "/SHORT.MP4"))
        #expect(FileManager.default.fileExists(atPath: destination + "/SHORT.MP4.part"))
    }

    @Test func aDeviceThatSendsMoreThanAskedIsRefusedNotWrittenPastTheEnd() throws {
        let destination = try temporaryFolder()
        let device = HostileDevice([.init(name: "LONG.JPG", listedSize: 5_000, content: [UInt8](repeating: 9, count: 50_000))])
        device.extraBytes = 100
        let session = try device.openSession()
        defer { session.close() }
        try session.catalog.ensureLoaded()
        var options = MediaSession.FetchOptions()
        options.chunkSize = 1000
        let results = try session.fetch(session.catalog.allFiles(), to: destination, options: options)
        #expect(throws: (any Error).self) { try results[0].outcome.get() }
        let part = (try? FileManager.default.attributesOfItem(atPath: destination + "/LONG.JPG.part")[.size] as? Int) ?? 0
        #expect(part <= 5_000)
        #expect(!FileManager.default.fileExists(atPath: destination + "/LONG.JPG"))
    }

    @Test func aDeviceThatStopsAnsweringIsATimeoutAndTheNextAttemptCanResume() throws {
        let destination = try temporaryFolder()
        let content = (0..<20_000).map { UInt8(truncatingIfNeeded: $0) }
        let device = HostileDevice([.init(name: "HANG.MP4", listedSize: 20_000, content: content)], timeout: 2)
        device.hangAtOffset = 8_000
        let session = try device.openSession()
        defer { session.close() }
        try session.catalog.ensureLoaded()
        var options = MediaSession.FetchOptions()
        options.chunkSize = 4_000
        let results = try session.fetch(session.catalog.allFiles(), to: destination, options: options)
        do {
            _ = try results[0].outcome.get()
            Issue.record("no error from a device that stopped answering")
        } catch {
            #expect(error.failureCategory == .timedOut, "\(error)")
        }
        let part = try #require(try FileManager.default.attributesOfItem(atPath: destination + "/HANG.MP4.part")[.size] as? Int)
        #expect(part == 8_000)
    }
}
