import Foundation
import POSIX
import PTP
import TestSupport
import Testing

@testable import PTPUSB

/// The USB transport against a real USB MTP device: QEMU's `usb-mtp` inside a VM (`scripts/test-usb-vm`).
/// Enabled by MEDIASHELL_USB_VM=1. The VM has three such devices: MEDIASHELL_USB_VM_CARD served read-only
/// (storage description "RO-CARD"), MEDIASHELL_USB_VM_RWCARD writable ("RW-CARD"), and the read-only card
/// again as "GONE-CARD", which the host unplugs (QMP device_del) when the test drops a file named
/// `unplug-now` into MEDIASHELL_USB_VM_RESULTS. The folders are visible in the guest at the same paths, so
/// every download is compared with the file itself.
@Suite(
    "USB against QEMU's MTP device (in the VM)", .serialized,
    .enabled(if: ProcessInfo.processInfo.environment["MEDIASHELL_USB_VM"] == "1", "set by scripts/test-usb-vm"),
    .tags(.process), .notInFastRun)
struct USBVMTests {
    static let environment = ProcessInfo.processInfo.environment
    static var card: String { environment["MEDIASHELL_USB_VM_CARD"] ?? "" }
    static var writableCard: String { environment["MEDIASHELL_USB_VM_RWCARD"] ?? "" }
    static var results: String { environment["MEDIASHELL_USB_VM_RESULTS"] ?? "" }
    /// TCG emulation is slow: generous, but still bounded.
    static let timeouts = USBTimeouts(transfer: 30, control: 5, recovery: 5)

    /// A device opened by its storage description, with its session open.
    struct Opened {
        let transport: USBTransport
        let session: PTPSession
        let storage: UInt32
        func close() { session.close() }
    }

    static func open(storageDescription: String) throws -> Opened {
        let cameras = USBTransport.cameras().filter { $0.usbID == "46f4:0004" }
        for camera in cameras {
            let transport = try USBTransport.open(.address(bus: camera.bus, address: camera.address), timeouts: timeouts)
            let session = PTPSession(transport: transport)
            try session.open()
            for id in try session.getStorageIDs() where try session.getStorageInfo(id).storageDescription == storageDescription {
                return Opened(transport: transport, session: session, storage: id)
            }
            session.close()
        }
        throw MissingDevice(description: "no QEMU MTP device serving \(storageDescription) among \(cameras)")
    }

    /// The VM has no QEMU device serving the storage a test needs.
    struct MissingDevice: Error, CustomStringConvertible {
        let description: String
    }

    /// Every object under `parent`, recursively, by path relative to the card.
    static func walk(_ session: PTPSession, storage: UInt32, parent: UInt32 = 0xFFFF_FFFF, prefix: String = "")
        throws -> [String: (handle: UInt32, info: ObjectInfo)]
    {
        var result: [String: (handle: UInt32, info: ObjectInfo)] = [:]
        for handle in try session.getObjectHandles(storage: storage, parent: parent) {
            let info = try session.getObjectInfo(handle)
            let path = prefix + info.filename
            result[path] = (handle, info)
            if info.isFolder {
                result.merge(try walk(session, storage: storage, parent: handle, prefix: path + "/")) { a, _ in a }
            }
        }
        return result
    }

    /// What QEMU serves of a folder, by the path it lists: regular files and folders, not dot-files, not
    /// symlinks; `hostPath` is where the file really is.
    static func hostFiles(_ root: String) throws -> [String: (isFolder: Bool, size: UInt64, hostPath: String)] {
        var result: [String: (isFolder: Bool, size: UInt64, hostPath: String)] = [:]
        func visit(_ folder: String, _ prefix: String) throws {
            for name in try FileManager.default.contentsOfDirectory(atPath: folder) where !name.hasPrefix(".") {
                let path = folder + "/" + name
                let attributes = try FileManager.default.attributesOfItem(atPath: path)
                let type = attributes[.type] as? FileAttributeType
                let listed = prefix + qemuName(name)
                if type == .typeDirectory {
                    result[listed] = (true, 0, path)
                    try visit(path, listed + "/")
                } else if type == .typeRegular {
                    result[listed] = (false, (attributes[.size] as? NSNumber)?.uint64Value ?? 0, path)
                }
            }
        }
        try visit(root, "")
        return result
    }

    /// QEMU converts names with mbstowcs in the C locale it runs in: any non-ASCII name becomes "Oops".
    static func qemuName(_ name: String) -> String { name.utf8.allSatisfy { $0 < 0x80 } ? name : "Oops" }

    @Test func discoveryFindsTheQEMUDevices() throws {
        let cameras = USBTransport.cameras()
        for camera in cameras { print("usb-vm: found \(camera) [\(camera.announcement.rawValue), interface \(camera.interfaceNumber)]") }
        let qemu = cameras.filter { $0.usbID == "46f4:0004" }
        #expect(qemu.count == 3 || qemu.count == 2)  // three until the unplug test pulls one
        for camera in qemu {
            #expect(camera.manufacturer == "QEMU")
            #expect(camera.model == "QEMU filesharing")
            #expect(camera.announcement == .stillImageClass)
            #expect(camera.problem == nil)
        }
        // usb:VVVV:PPPP opens the first of them.
        let transport = try USBTransport.open(.id(vendor: 0x46F4, product: 0x0004), timeouts: Self.timeouts)
        #expect(transport.camera?.usbID == "46f4:0004")
        transport.close()
    }

    @Test func summary() throws {
        let device = try Self.open(storageDescription: "RO-CARD")
        defer { device.close() }
        let info = device.session.deviceInfo
        print("usb-vm: \(info.manufacturer) / \(info.model) / version \(info.deviceVersion) / serial \(info.serialNumber)")
        print("usb-vm: operations \(info.operationsSupported.map(\.description).joined(separator: ", "))")
        print("usb-vm: events \(info.eventsSupported.map(\.description)), vendor extension \(info.vendorExtensionID) '\(info.vendorExtensionDescription)'")
        #expect(info.manufacturer == "QEMU")
        #expect(info.model == "QEMU filesharing")
        #expect(info.supports(.getObject) && info.supports(.getPartialObject) && info.supports(.deleteObject))
        // What QEMU's responder lacks; the media manager falls back to per-object listing.
        #expect(!info.supports(.getObjectPropList))
        #expect(!info.supports(.getThumb))
        #expect(!info.supports(.initiateCapture))
        let storage = try device.session.getStorageInfo(device.storage)
        print("usb-vm: storage 0x\(String(device.storage, radix: 16)) '\(storage.storageDescription)' read-only \(storage.isReadOnly), \(storage.maxCapacity) bytes")
        #expect(storage.isReadOnly)
        let status = try? device.transport.deviceStatus()
        print("usb-vm: Get Device Status: \(status.map(\.description) ?? "refused (stall)")")
    }

    @Test func listingMatchesTheCard() throws {
        let device = try Self.open(storageDescription: "RO-CARD")
        defer { device.close() }
        let listed = try Self.walk(device.session, storage: device.storage)
        let expected = try Self.hostFiles(Self.card)
        print("usb-vm: listed \(listed.count) objects, the card has \(expected.count)")
        #expect(Set(listed.keys) == Set(expected.keys))
        for (path, object) in listed {
            guard let host = expected[path] else { continue }
            #expect(object.info.isFolder == host.isFolder, "\(path)")
            if !host.isFolder { #expect(UInt64(object.info.compressedSize) == host.size, "\(path)") }
        }
    }

    @Test func everyFileDownloadsByteIdentical() throws {
        let device = try Self.open(storageDescription: "RO-CARD")
        defer { device.close() }
        let files = try Self.walk(device.session, storage: device.storage).filter { !$0.value.info.isFolder }
        let host = try Self.hostFiles(Self.card)
        var total: UInt64 = 0
        let started = Date()
        for (path, object) in files.sorted(by: { $0.key < $1.key }) {
            let sink = try ComparingSink(path: try #require(host[path]?.hostPath, "\(path) is not on the card"))
            try device.session.getObject(object.handle, into: sink)
            #expect(sink.mismatchAt == nil, "\(path): differs at byte \(sink.mismatchAt ?? 0)")
            #expect(sink.count == sink.expectedSize, "\(path): \(sink.count) of \(sink.expectedSize) bytes")
            #expect(sink.largestChunk <= USBBulkTuning.transferSize)
            total += sink.count
        }
        let elapsed = Date().timeIntervalSince(started)
        print("usb-vm: downloaded \(files.count) files, \(total) bytes in \(String(format: "%.1f", elapsed)) s, all byte-identical")
    }

    @Test func partialReadsAtAnOffset() throws {
        let device = try Self.open(storageDescription: "RO-CARD")
        defer { device.close() }
        let files = try Self.walk(device.session, storage: device.storage)
        let big = try #require(files.filter { !$0.value.info.isFolder }.max { $0.value.info.compressedSize < $1.value.info.compressedSize })
        let host = try Data(contentsOf: URL(fileURLWithPath: Self.card + "/" + big.key))
        for (offset, count) in [(1000, 5000), (0, 1), (host.count - 100, 4096), (123_457, 65_536 - 12)] {
            let sink = BufferSink()
            let sent = try device.session.getPartialObject(big.value.handle, offset: UInt64(offset), count: UInt32(count), into: sink)
            let expected = host[offset..<min(host.count, offset + count)]
            #expect(sink.bytes == Array(expected), "\(big.key) at \(offset)+\(count)")
            #expect(Int(sent) == expected.count)
        }
        print("usb-vm: partial reads of \(big.key) match")
    }

    @Test func cancelledDownloadLeavesTheDeviceUsable() throws {
        let device = try Self.open(storageDescription: "RO-CARD")
        defer { device.close() }
        let files = try Self.walk(device.session, storage: device.storage)
        let big = try #require(files.filter { !$0.value.info.isFolder }.max { $0.value.info.compressedSize < $1.value.info.compressedSize })
        #expect(big.value.info.compressedSize > 4 << 20)
        let sink = try ComparingSink(path: Self.card + "/" + big.key, failAfter: 512 << 10)
        #expect(throws: CancellationError.self) { try device.session.getObject(big.value.handle, into: sink) }
        // The transaction was cancelled on the device (class Cancel request); the next ones work.
        let again = try ComparingSink(path: Self.card + "/" + big.key)
        try device.session.getObject(big.value.handle, into: again)
        #expect(again.mismatchAt == nil && again.count == again.expectedSize)
        print("usb-vm: a download cancelled after 512 KiB of \(big.value.info.compressedSize) bytes; the next one is whole")
    }

    @Test func deleteOnTheWritableCardAndRefusalOnTheReadOnlyOne() throws {
        let readOnly = try Self.open(storageDescription: "RO-CARD")
        let some = try #require(try Self.walk(readOnly.session, storage: readOnly.storage).first { !$0.value.info.isFolder })
        expectResponse(.storeReadOnly, to: .deleteObject) {
            try readOnly.session.deleteObject(some.value.handle)
        }
        readOnly.close()

        let device = try Self.open(storageDescription: "RW-CARD")
        defer { device.close() }
        let before = try Self.walk(device.session, storage: device.storage)
        let victim = try #require(before["delete-me.jpg"])
        try device.session.deleteObject(victim.handle)
        let after = try Self.walk(device.session, storage: device.storage)
        #expect(after["delete-me.jpg"] == nil)
        #expect(after.count == before.count - 1)
        print("usb-vm: deleted delete-me.jpg on RW-CARD")
    }

    @Test(arguments: [100_001, 512 * 100 - 12])
    func uploadOnTheWritableCard(size: Int) throws {
        // SendObjectInfo + SendObject: data phases from the host, then the file read back.
        let device = try Self.open(storageDescription: "RW-CARD")
        defer { device.close() }
        // QEMU only notices new files in folders it has listed (inotify), and assigns their handle then,
        // announcing it with ObjectAdded.
        let added = Mailbox<PTPEvent>()
        device.session.setEventHandler { event in added.put(event) }
        _ = try device.session.getObjectHandles(storage: device.storage, parent: 0xFFFF_FFFF)
        let name = "upload-\(size).bin"
        let payload = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) }
        var info = ObjectInfo()
        info.storageID = device.storage
        info.format = .undefined
        info.compressedSize = UInt32(size)
        info.filename = name
        try device.session.execute(.sendObjectInfo, [device.storage, 0xFFFF_FFFF], dataOut: BufferSource(info.encoded()))
        if (size + 12) % 512 == 0 {
            // The container is an exact multiple of the packet size, so a zero-length packet must end it,
            // and QEMU stalls packets shorter than 12 bytes: a clear error, then a usable device.
            #expect {
                try device.session.execute(.sendObject, dataOut: BufferSource(payload))
            } throws: { error in
                guard case PTPError.protocolViolation(let violation) = error else { return false }
                print("usb-vm: upload of \(size) bytes: \(violation)")
                return violation.breach == .refusedZeroLengthPacket(containerBytes: UInt64(size + 12))
            }
            #expect(try device.session.getStorageIDs() == [device.storage], "the device is usable after the failed upload")
            return
        }
        try device.session.execute(.sendObject, dataOut: BufferSource(payload))
        // The VM's card shows the new object once QEMU's inotify has seen the file it wrote: its ObjectAdded,
        // waited for at most 20 s; then the card lists it under that handle.
        let deadline = Deadline.after(20)
        var announced: UInt32?
        while announced == nil, let event = added.take(timeout: deadline.remaining, where: { $0.code == .objectAdded }) {
            let candidate = event.parameter(0)
            if (try? device.session.getObjectInfo(candidate).filename) == name { announced = candidate }
        }
        try #require(announced != nil, "no ObjectAdded for \(name) within 20 s: \(added.all.map { "\($0.code)(\($0.parameters))" })")
        let handle = try Self.walk(device.session, storage: device.storage)[name]?.handle
        #expect(handle == announced, "the card lists \(name) under the handle its ObjectAdded named")
        let back = BufferSink()
        try device.session.getObject(try #require(handle, "\(name) never appeared"), into: back)
        #expect(back.bytes == payload)
        print("usb-vm: uploaded \(name) (\(size) bytes) and read it back identical")
    }

    @Test func eventsArriveWhenTheWritableCardChanges() throws {
        let device = try Self.open(storageDescription: "RW-CARD")
        defer { device.close() }
        let added = Mailbox<PTPEvent>()
        device.session.setEventHandler { event in added.put(event) }
        _ = try device.session.getObjectHandles(storage: device.storage, parent: 0xFFFF_FFFF)  // QEMU watches listed folders
        let name = "event-\(getpid()).txt"
        try Data("hello".utf8).write(to: URL(fileURLWithPath: Self.writableCard + "/" + name))
        let objectAdded = added.take(timeout: 20) { $0.code == .objectAdded }
        print("usb-vm: events after creating \(name): ObjectAdded \(objectAdded.map { "\($0.parameters)" } ?? "never came"), "
            + "then \(added.all.map { "\($0.code)(\($0.parameters))" })")
        let handle = try #require(objectAdded?.parameter(0), "no ObjectAdded within 20 s")
        #expect(try device.session.getObjectInfo(handle).filename == name)
    }
}

extension USBVMTests {
    @Test func unplugMidDownloadIsAClearError() throws {
        let device = try Self.open(storageDescription: "GONE-CARD")
        defer { device.close() }
        let files = try Self.walk(device.session, storage: device.storage)
        let big = try #require(files.filter { !$0.value.info.isFolder }.max { $0.value.info.compressedSize < $1.value.info.compressedSize })
        // After the first chunk, ask the host to pull the device and wait (bounded) until its node leaves
        // /dev, so the next read of the transfer meets a device that is gone.
        let bus = try #require(device.transport.camera?.bus)
        let address = try #require(device.transport.camera?.address)
        let sink = try ComparingSink(path: Self.card + "/" + big.key) { count in
            guard count == 0 else { return }
            let removal = try? DeviceNodeRemoval(bus: bus, address: address)
            _ = FileManager.default.createFile(atPath: Self.results + "/unplug-now", contents: Data())
            #expect(removal?.wait(timeout: 30) == true, "the device node did not leave /dev")
        }
        let started = Date()
        #expect {
            try device.session.getObject(big.value.handle, into: sink)
        } throws: { error in
            print("usb-vm: unplugged after \(sink.count) of \(big.value.info.compressedSize) bytes: \(error)")
            guard case PTPError.connectionClosed(.unplugged(_, _, code: "LIBUSB_ERROR_NO_DEVICE")) = error else { return false }
            return true
        }
        #expect(Date().timeIntervalSince(started) < 30)
        // What arrived is a true prefix of the file: a download job keeps it as its .part.
        #expect(sink.count > 0 && sink.count < UInt64(big.value.info.compressedSize))
        #expect(sink.mismatchAt == nil)
        #expect(throws: PTPError.self) { try device.session.getStorageIDs() }
        #expect(!USBTransport.cameras().contains { $0.bus == device.transport.camera?.bus && $0.address == device.transport.camera?.address })
    }
}

/// Compares a download with the file it should equal, chunk by chunk, holding nothing in memory.
final class ComparingSink: DataSink {
    let file: FileHandle
    let expectedSize: UInt64
    let failAfter: UInt64?
    private(set) var count: UInt64 = 0
    private(set) var mismatchAt: UInt64?
    private(set) var largestChunk = 0

    /// Called before each chunk with the bytes compared so far.
    let beforeChunk: ((UInt64) -> Void)?

    init(path: String, failAfter: UInt64? = nil, beforeChunk: ((UInt64) -> Void)? = nil) throws {
        file = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        expectedSize = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.uint64Value ?? 0
        self.failAfter = failAfter
        self.beforeChunk = beforeChunk
    }

    deinit { try? file.close() }

    func begin(expectedLength: UInt64?) throws {}

    func write(_ chunk: UnsafeRawBufferPointer) throws {
        if let failAfter, count >= failAfter { throw CancellationError() }
        beforeChunk?(count)
        largestChunk = max(largestChunk, chunk.count)
        let expected = try file.read(upToCount: chunk.count) ?? Data()
        if mismatchAt == nil {
            let same = expected.count == chunk.count
                && expected.withUnsafeBytes { memcmp($0.baseAddress!, chunk.baseAddress!, chunk.count) == 0 }
            if !same {
                let index = zip(expected, chunk).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                mismatchAt = count + UInt64(index ?? min(expected.count, chunk.count))
            }
        }
        count += UInt64(chunk.count)
    }
}

/// The removal of a USB device's node, `/dev/bus/usb/BBB/DDD`, heard through inotify on its folder.
struct DeviceNodeRemoval {
    let events: FolderEvents
    let folder: String
    let name: String

    init(bus: Int, address: Int) throws {
        folder = String(format: "/dev/bus/usb/%03d", bus)
        name = String(format: "%03d", address)
        events = try FolderEvents()
        _ = try events.add(folder: folder)
    }

    /// True once the node is gone (at once when it is not there), false after `timeout` seconds.
    func wait(timeout: Double) -> Bool {
        let deadline = Deadline.after(timeout)
        while FileManager.default.fileExists(atPath: folder + "/" + name) {
            if deadline.hasPassed { return false }
            _ = try? pollDescriptors([events.descriptor], events: .readable, deadline: deadline)
            if events.take().contains(where: { $0.name == name && $0.kinds.contains(.deleted) }) { return true }
        }
        return true
    }
}
