import FujiWiFi
import Foundation
import MediaFormats
import PTP
import PTPIP
import Testing
import VirtualCamera

@testable import PTPUSB

/// The fuzz targets' seeds (Fuzz/Corpus, read by scripts/fuzz) are what the tests send: the virtual
/// camera's datasets, quirks included, PTP/IP packets and USB containers of a session, the demo media.
/// `MEDIASHELL_WRITE_FUZZ_CORPUS=1 swift test --filter FuzzCorpusTests` writes them again; a normal run
/// checks that every committed seed of a dataset still decodes, so the corpus stays a good start.
@Suite struct FuzzCorpusTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fuzz/Corpus")

    /// Every seed, by target and file name.
    static func seeds() throws -> [String: [String: [UInt8]]] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("msh-corpus-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        for (path, size) in ["DCIM/100MEDIA/DJI_0001.JPG": 2000, "DCIM/100MEDIA/DJI_0002.MP4": 5000, "MISC/notes.txt": 10] {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data((0..<size).map { UInt8(truncatingIfNeeded: $0) }).write(to: url)
        }
        var seeds: [String: [String: [UInt8]]] = [:]
        for (tag, quirks) in [("plain", []), ("size64", [Quirk.objectInfoSize64]), ("damaged", [.truncatedObjectInfo, .invalidUTF16])]
            as [(String, Quirks)]
        {
            let card = try Card(folder: folder.path)
            let camera = VirtualCamera(card: card, quirks: quirks)
            let (initiator, responder) = InMemoryTransport.makePair(timeout: 10)
            Thread { camera.serve(responder, peer: "corpus") }.start()
            let session = PTPSession(transport: initiator)
            defer {
                session.close()
                responder.close()
            }
            try session.open()
            if quirks.isEmpty {
                seeds["DeviceInfo", default: [:]]["deviceinfo"] = try session.request(.getDeviceInfo)
                seeds["DeviceInfo", default: [:]]["storageinfo"] = try session.request(.getStorageInfo, [card.storage.id])
                for code in session.deviceInfo.devicePropertiesSupported.prefix(4) {
                    seeds["DevicePropDesc", default: [:]][String(code.rawValue, radix: 16)] =
                        try session.request(.getDevicePropDesc, [UInt32(code.rawValue)])
                }
            }
            for path in ["DCIM", "DCIM/100MEDIA/DJI_0001.JPG", "DCIM/100MEDIA/DJI_0002.MP4"] {
                let handle = try #require(card.handle(forPath: path))
                let name = path.split(separator: "/").last!.lowercased()
                seeds["ObjectInfo", default: [:]]["\(tag)-\(name)"] = try session.request(.getObjectInfo, [handle])
            }
            // The target's first byte chooses the pieces the streaming decoder is fed in.
            let list = try session.request(.getObjectPropList, [0, 0, 0xFFFF_FFFF, 0, 0xFFFF_FFFF])
            seeds["ObjectPropList", default: [:]]["\(tag)-card"] = [0x07] + list
            seeds["ObjectPropList", default: [:]]["\(tag)-card-unannounced"] = [0x8F] + list
        }
        // A PTP/IP session as a device sends it, and each packet alone.
        let packets: [(String, PTPIPPacket)] = [
            ("init-command-ack", .initCommandAck(connectionNumber: 1, guid: Array(repeating: 7, count: 16), name: "Camera", version: ptpipProtocolVersion)),
            ("init-event-ack", .initEventAck), ("init-fail", .initFail(reason: 1)),
            ("response", .commandResponse(PTPResponse(.ok, transactionID: 3, parameters: [1, 2]))),
            ("event", .event(PTPEvent(.objectAdded, transactionID: 0, parameters: [0x42]))),
            ("start-data", .startData(transactionID: 3, totalLength: 6)), ("data", .data(transactionID: 3, payload: [1, 2])),
            ("end-data", .endData(transactionID: 3, payload: [3, 4, 5, 6])), ("ping", .ping), ("cancel", .cancel(transactionID: 3)),
        ]
        for (name, packet) in packets { seeds["PTPIPPacket", default: [:]][name] = packet.encoded() }
        seeds["PTPIPPacket", default: [:]]["session"] = packets.dropFirst(3).flatMap { $0.1.encoded() }
        // A USB device's transfers for OpenSession, GetObjectInfo and GetObject (u16 length, bytes).
        func transfer(_ bytes: [UInt8]) -> [UInt8] { [UInt8(bytes.count & 0xFF), UInt8(bytes.count >> 8)] + bytes }
        func container(_ kind: UInt16, _ code: UInt16, _ id: UInt32, _ payload: [UInt8]) -> [UInt8] {
            var bytes: [UInt8] = []
            ContainerHeader(length: UInt32(12 + payload.count), kind: .init(rawValue: kind)!, code: code, transactionID: id)
                .encode(into: &bytes)
            return bytes + payload
        }
        let info = seeds["ObjectInfo"]!["plain-dji_0001.jpg"]!
        // A Fujifilm body's answers on its one socket: its init answer, then containers.
        let fuji = FujiHandshake.acknowledge(guid: Array(repeating: 5, count: 16), name: "X-T20")
        seeds["FujiPacket", default: [:]]["session"] =
            fuji + ContainerCodec.response(PTPResponse(.ok, transactionID: 1))
            + (try FujiContainer.dataHeader(code: 0x1008, transactionID: 2, payloadLength: UInt64(info.count))) + info
            + ContainerCodec.response(PTPResponse(.ok, transactionID: 2))
            + ContainerCodec.event(PTPEvent(.objectAdded, transactionID: 0, parameters: [7]))
        seeds["FujiPacket", default: [:]]["refused"] = FujiHandshake.fail(reason: 0x2019)
        seeds["FujiPacket", default: [:]]["request"] = FujiHandshake.request(guid: Array(repeating: 1, count: 16), name: "host")
        seeds["USBContainer", default: [:]]["session"] =
            transfer(container(3, 0x2001, 0, [])) + transfer(container(2, 0x1008, 1, info)) + transfer(container(3, 0x2001, 1, []))
            + transfer(container(2, 0x1009, 2, Array(repeating: 0xAB, count: 600))) + transfer(container(3, 0x2001, 2, []))
        seeds["USBContainer", default: [:]]["data-and-response-in-one"] =
            transfer(container(3, 0x2001, 0, [])) + transfer(container(2, 0x1008, 1, info) + container(3, 0x2001, 1, []))
        // Vendor event lists: what the canon-eos persona's first GetEvent carries (every property and its
        // allowed values) and a capture's records; a Nikon GetEvent list.
        let eos = VirtualCamera(card: try DemoCard.make(), persona: .named(.canonEOS))
        let (eosInitiator, eosResponder) = InMemoryTransport.makePair(timeout: 10)
        Thread { eos.serve(eosResponder, peer: "corpus") }.start()
        let eosSession = PTPSession(transport: eosInitiator)
        try eosSession.open()
        try eosSession.execute(.canonEOSSetEventMode, [1])
        seeds["VendorEvents", default: [:]]["eos-first-getevent"] = try eosSession.request(.canonEOSGetEvent)
        eosSession.close()
        seeds["VendorEvents", default: [:]]["eos-capture"] = CanonEOSEvent.encode([
            .objectAdded(CanonEOSObject(handle: 0x1F, storageID: 0x0001_0001, format: .association, size: 0, parent: 2, name: "101CANON")),
            .objectAdded(CanonEOSObject(handle: 0x20, storageID: 0x0001_0001, format: .exifJPEG, size: 79_387, parent: 0x1F, name: "IMG_0101.JPG")),
            .propertyValue(.canonEOSAvailableShots, [0xE6, 0x03, 0, 0]), .cameraStatus(0), .objectRemoved(handle: 3),
        ])
        seeds["VendorEvents", default: [:]]["nikon-getevent"] = NikonEvents.encode([
            PTPEvent(.nikonObjectAddedInSDRAM, parameters: [0xFFFF_0001]), PTPEvent(.nikonCaptureCompleteRecInSdram),
            PTPEvent(.devicePropChanged, parameters: [0x5001]),
        ])
        // The demo media: thumbnails (JPEG), the head of a photo with GPS tags, a DJI proxy (MP4), the head of
        // a fast-start movie and a DJI clip's telemetry.
        for (target, name, limit) in [
            ("EXIF", "clip.thumb.jpg", 1 << 16), ("EXIF", "landscape_faststart.thumb.jpg", 1 << 16),
            ("EXIF", "photo_rotated_orientation6.jpg", 8_000),
            ("MP4", "landscape_proxy_160x90.lrf", 1 << 16), ("MP4", "landscape_faststart.mp4", 12_000),
            ("SRT", "landscape_telemetry.srt", 1 << 16),
        ] {
            let path = try #require(DemoMedia.file(name))
            seeds[target, default: [:]][name] = Array([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))).prefix(limit))
        }
        return seeds
    }

    @Test func theCommittedSeedsDecode() throws {
        if ProcessInfo.processInfo.environment["MEDIASHELL_WRITE_FUZZ_CORPUS"] == "1" {
            for (target, files) in try Self.seeds() {
                let folder = Self.root.appendingPathComponent(target)
                try? FileManager.default.removeItem(at: folder)
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                for (name, bytes) in files { try Data(bytes).write(to: folder.appendingPathComponent(name)) }
            }
        }
        func seeds(_ target: String) throws -> [(String, [UInt8])] {
            let folder = Self.root.appendingPathComponent(target)
            return try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().map {
                ($0, [UInt8](try Data(contentsOf: folder.appendingPathComponent($0))))
            }
        }
        for (name, bytes) in try seeds("ObjectInfo") where !name.hasPrefix("damaged") {
            #expect(try !ObjectInfo(decoding: bytes).filename.isEmpty, "\(name)")
        }
        for (name, bytes) in try seeds("DeviceInfo") where name.hasSuffix("deviceinfo") {
            #expect(throws: Never.self, "\(name)") { try DeviceInfo(decoding: bytes) }
        }
        for (name, bytes) in try seeds("ObjectPropList") {
            #expect(try !ListedObject.decodeAll(Array(bytes.dropFirst())).isEmpty, "\(name)")
        }
        for (name, bytes) in try seeds("PTPIPPacket") where name != "session" {
            #expect(throws: Never.self, "\(name)") { try PTPIPPacket(decoding: bytes) }
        }
        for (name, bytes) in try seeds("MP4") {
            #expect(throws: Never.self, "\(name)") { try MovieReader().read(from: MemoryByteSource(bytes)) }
        }
        for (name, bytes) in try seeds("FujiPacket") where name != "request" {
            #expect(throws: Never.self, "\(name)") { try FujiHandshake.decodeAnswer(Array(bytes.prefix(Int(bytes[0])))) }
        }
        for (name, bytes) in try seeds("VendorEvents") {
            #expect(!CanonEOSEvent.decode(bytes).isEmpty || !NikonEvents.decode(bytes).isEmpty, "\(name)")
        }
        for (name, bytes) in try seeds("SRT") {
            #expect(!FlightSummary(srt: bytes).isEmpty, "\(name)")
        }
        let gps = try #require(try seeds("EXIF").first { $0.0 == "photo_rotated_orientation6.jpg" })
        #expect(try ExifDetails(tags: ExifReader().tags(from: MemoryByteSource(gps.1))).latitude != nil)
        #expect(try seeds("USBContainer").count == 2 && seeds("EXIF").count == 3 && seeds("DevicePropDesc").count >= 4)
    }
}
