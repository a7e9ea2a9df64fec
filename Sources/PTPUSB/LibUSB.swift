// The one file of this module that calls libusb. Everything above it speaks `USBPipe`,
// `USBInterfaceSummary` and `LibUSBError`.
import CLibUSB
import Foundation
import POSIX
import PTP

// MARK: Errors

/// A libusb error code (`enum libusb_error`), kept as the number libusb returned so an unknown one
/// survives; named constants for the documented ones. Its description names the code as libusb does
/// (`LIBUSB_ERROR_ACCESS`) so a log line can be searched for.
public struct LibUSBError: RawRepresentable, Error, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }
    private init(_ code: libusb_error) { rawValue = code.rawValue }

    /// Input/output error.
    public static let io = LibUSBError(LIBUSB_ERROR_IO)
    /// Invalid parameter.
    public static let invalidParameter = LibUSBError(LIBUSB_ERROR_INVALID_PARAM)
    /// No permission to open the device (udev rules, or not root).
    public static let access = LibUSBError(LIBUSB_ERROR_ACCESS)
    /// The device is gone: unplugged, or reset by someone else.
    public static let noDevice = LibUSBError(LIBUSB_ERROR_NO_DEVICE)
    /// Entity not found.
    public static let notFound = LibUSBError(LIBUSB_ERROR_NOT_FOUND)
    /// The interface is claimed by another program or a kernel driver.
    public static let busy = LibUSBError(LIBUSB_ERROR_BUSY)
    /// Nothing happened within the timeout.
    public static let timeout = LibUSBError(LIBUSB_ERROR_TIMEOUT)
    /// The device sent more than was asked for.
    public static let overflow = LibUSBError(LIBUSB_ERROR_OVERFLOW)
    /// The endpoint stalled (or a control request was refused).
    public static let pipe = LibUSBError(LIBUSB_ERROR_PIPE)
    /// A system call was interrupted.
    public static let interrupted = LibUSBError(LIBUSB_ERROR_INTERRUPTED)
    /// Out of memory.
    public static let noMemory = LibUSBError(LIBUSB_ERROR_NO_MEM)
    /// Not supported on this platform or by this device.
    public static let notSupported = LibUSBError(LIBUSB_ERROR_NOT_SUPPORTED)
    /// Some other error.
    public static let other = LibUSBError(LIBUSB_ERROR_OTHER)

    /// Lets `catch LibUSBError.timeout` match.
    public static func ~= (match: LibUSBError, error: any Error) -> Bool {
        (error as? LibUSBError) == match
    }

    /// libusb's name for the code, e.g. `LIBUSB_ERROR_ACCESS` (`libusb_error_name`).
    public var name: String { String(cString: libusb_error_name(rawValue)) }

    /// "LIBUSB_ERROR_ACCESS (Access denied (insufficient permissions))" (`libusb_strerror`).
    public var description: String { "\(name) (\(reason))" }

    /// libusb's text for the code (`libusb_strerror`): "Access denied (insufficient permissions)".
    public var reason: String { String(cString: libusb_strerror(rawValue)) }
}

/// Runs a libusb call that returns a status; negative values become a `LibUSBError`. An interrupted call
/// is retried here, the only place that does so.
@discardableResult
private func check(_ call: () -> Int32) throws(LibUSBError) -> Int32 {
    while true {
        let status = call()
        if status >= 0 { return status }
        if status == LIBUSB_ERROR_INTERRUPTED.rawValue { continue }
        throw LibUSBError(rawValue: status)
    }
}

/// libusb timeouts are unsigned milliseconds, 0 meaning "for ever": round up so a tiny timeout never
/// becomes an endless wait.
func milliseconds(_ timeout: TimeInterval) -> UInt32 {
    if timeout <= 0 { return 1 }
    return UInt32(min(max((timeout * 1000).rounded(.up), 1), Double(UInt32.max)))
}

// MARK: Context

/// A libusb context. Devices and handles keep it alive; `libusb_exit` runs when the last one goes.
final class LibUSBContext: @unchecked Sendable {
    // Safe because it only wraps a C handle that libusb lets any thread use; nothing of its own changes.
    let raw: OpaquePointer

    private init(raw: OpaquePointer) { self.raw = raw }

    /// A new context, or nil when this machine has no USB that libusb can reach (no `/dev/bus/usb`, or a
    /// build that needs udev without it): both mean "no USB cameras here".
    /// `MEDIASHELL_USB_DEBUG=1..4` turns on libusb's own log on stderr.
    static func make() -> LibUSBContext? {
        var context: OpaquePointer?
        guard libusb_init(&context) == 0, let context else { return nil }
        let level = Int32(ProcessInfo.processInfo.environment["MEDIASHELL_USB_DEBUG"] ?? "") ?? 0
        _ = msh_libusb_set_log_level(context, min(max(level, 0), 4))
        return LibUSBContext(raw: context)
    }

    deinit { libusb_exit(raw) }
}

// MARK: Discovery

/// A device found on the bus, before it is opened: its ids, position and interfaces.
struct LibUSBDeviceRecord {
    let context: LibUSBContext
    /// A referenced `libusb_device`; unreferenced in deinit of the owner (`LibUSBDeviceList`).
    let device: OpaquePointer
    let bus: Int
    let address: Int
    let vendorID: UInt16
    let productID: UInt16
    let manufacturerIndex: UInt8
    let productIndex: UInt8
    let serialIndex: UInt8
    /// Interfaces of the active configuration (or the first one), each alternate setting listed.
    let interfaces: [(summary: USBInterfaceSummary, nameIndex: UInt8)]
}

/// The devices on every bus, each referenced until this list goes away.
final class LibUSBDeviceList {
    let records: [LibUSBDeviceRecord]

    init(context: LibUSBContext) {
        var list: UnsafeMutablePointer<OpaquePointer?>?
        let count = libusb_get_device_list(context.raw, &list)
        var records: [LibUSBDeviceRecord] = []
        if count > 0, let list {
            for index in 0..<count {
                guard let device = list[index] else { continue }
                var descriptor = libusb_device_descriptor()
                guard libusb_get_device_descriptor(device, &descriptor) == 0 else { continue }
                // Hubs never carry PTP.
                if descriptor.bDeviceClass == UInt8(LIBUSB_CLASS_HUB.rawValue) { continue }
                libusb_ref_device(device)
                records.append(
                    LibUSBDeviceRecord(
                        context: context, device: device, bus: Int(libusb_get_bus_number(device)),
                        address: Int(libusb_get_device_address(device)), vendorID: descriptor.idVendor,
                        productID: descriptor.idProduct, manufacturerIndex: descriptor.iManufacturer,
                        productIndex: descriptor.iProduct, serialIndex: descriptor.iSerialNumber,
                        interfaces: Self.interfaces(of: device)))
            }
        }
        if let list { libusb_free_device_list(list, 1) }
        self.records = records
    }

    deinit {
        for record in records { libusb_unref_device(record.device) }
    }

    private static func interfaces(of device: OpaquePointer) -> [(summary: USBInterfaceSummary, nameIndex: UInt8)] {
        var config: UnsafeMutablePointer<libusb_config_descriptor>?
        if libusb_get_active_config_descriptor(device, &config) != 0 {
            config = nil
            guard libusb_get_config_descriptor(device, 0, &config) == 0 else { return [] }
        }
        guard let config else { return [] }
        defer { libusb_free_config_descriptor(config) }
        var result: [(summary: USBInterfaceSummary, nameIndex: UInt8)] = []
        guard let interfaces = msh_libusb_config_interfaces(config) else { return [] }
        for i in 0..<Int(config.pointee.bNumInterfaces) {
            let interface = interfaces[i]
            guard let settings = interface.altsetting else { continue }
            for s in 0..<Int(max(interface.num_altsetting, 0)) {
                let setting = settings[s]
                var endpoints: [USBEndpointSummary] = []
                if let list = setting.endpoint {
                    for e in 0..<Int(setting.bNumEndpoints) {
                        let endpoint = list[e]
                        endpoints.append(
                            USBEndpointSummary(
                                address: endpoint.bEndpointAddress, transferType: endpoint.bmAttributes & 3,
                                maxPacketSize: Int(endpoint.wMaxPacketSize & 0x7FF)))
                    }
                }
                let summary = USBInterfaceSummary(
                    number: Int(setting.bInterfaceNumber), alternateSetting: Int(setting.bAlternateSetting),
                    interfaceClass: setting.bInterfaceClass, subclass: setting.bInterfaceSubClass,
                    interfaceProtocol: setting.bInterfaceProtocol, endpoints: endpoints)
                result.append((summary, setting.iInterface))
            }
        }
        return result
    }
}

/// An open device (`libusb_device_handle`), closed in deinit.
final class LibUSBDeviceHandle: @unchecked Sendable {
    // Safe because it only wraps a C handle that libusb lets any thread use; nothing of its own changes.
    let context: LibUSBContext
    let raw: OpaquePointer

    init(_ record: LibUSBDeviceRecord) throws(LibUSBError) {
        var handle: OpaquePointer?
        try check { libusb_open(record.device, &handle) }
        guard let handle else { throw .other }
        context = record.context
        raw = handle
    }

    deinit { libusb_close(raw) }

    /// A string descriptor in the device's first language, as ASCII (`libusb_get_string_descriptor_ascii`);
    /// nil for index 0 or when the device refuses.
    func string(at index: UInt8) -> String? {
        guard index != 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = libusb_get_string_descriptor_ascii(raw, index, &buffer, Int32(buffer.count))
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<Int(count)], as: UTF8.self).trimmingCharacters(in: .whitespaces)
    }

    /// The compatible id of the Microsoft OS descriptor ("MTP"): string 0xEE says "MSFT100" and the vendor
    /// request code, which then fetches the Extended Compat ID descriptor. nil when the device has none.
    func microsoftCompatibleID() -> String? {
        var signature = [UInt8](repeating: 0, count: 18)
        let count = libusb_control_transfer(
            raw, UInt8(LIBUSB_ENDPOINT_IN.rawValue), UInt8(LIBUSB_REQUEST_GET_DESCRIPTOR.rawValue),
            UInt16(LIBUSB_DT_STRING.rawValue) << 8 | 0xEE, 0, &signature, UInt16(signature.count), 1000)
        guard count >= 18 else { return nil }
        let text = stride(from: 2, to: 16, by: 2).map { signature[$0] }
        guard text == Array("MSFT100".utf8) else { return nil }
        var compat = [UInt8](repeating: 0, count: 40)
        let got = libusb_control_transfer(
            raw, UInt8(LIBUSB_ENDPOINT_IN.rawValue | LIBUSB_REQUEST_TYPE_VENDOR.rawValue), signature[16], 0, 4,
            &compat, UInt16(compat.count), 1000)
        guard got > 0 else { return nil }
        return USBInterfaceMatch.compatibleID(fromExtendedCompatDescriptor: Array(compat[0..<Int(got)]))
    }
}

/// Lists the attached PTP/MTP devices. Devices that cannot be opened are still listed when their
/// descriptors alone show a still-image interface, with the reason in `problem`.
func libUSBCameras(in list: LibUSBDeviceList) -> [USBCameraDescription] {
    var found: [USBCameraDescription] = []
    for record in list.records {
        var interfaces = record.interfaces.map(\.summary)
        let plainMatch = USBInterfaceMatch.ptpInterface(in: interfaces)
        let vendorCandidate = interfaces.contains { $0.isVendorSpecific && $0.ptpEndpoints != nil }
        guard plainMatch != nil || vendorCandidate else { continue }

        var handle: LibUSBDeviceHandle?
        var problem: String?
        do { handle = try LibUSBDeviceHandle(record) } catch { problem = openProblem(error) }
        var compatibleID: String?
        if let handle {
            for i in interfaces.indices where interfaces[i].isVendorSpecific {
                interfaces[i].name = handle.string(at: record.interfaces[i].nameIndex)
            }
            if USBInterfaceMatch.needsMicrosoftDescriptor(interfaces) { compatibleID = handle.microsoftCompatibleID() }
        }
        guard let (interface, announcement) = USBInterfaceMatch.ptpInterface(
            in: interfaces, microsoftCompatibleID: compatibleID)
        else { continue }
        let camera = USBCameraDescription(
            bus: record.bus, address: record.address, vendorID: record.vendorID, productID: record.productID,
            manufacturer: handle?.string(at: record.manufacturerIndex) ?? "",
            model: handle?.string(at: record.productIndex) ?? "",
            serialNumber: handle?.string(at: record.serialIndex) ?? "",
            interfaceNumber: interface.number, announcement: announcement, problem: problem,
            link: link(of: record, handle))
        found.append(camera)
    }
    return found
}

/// The speed the device runs at, and the best it says it can do (which needs it open).
private func link(of record: LibUSBDeviceRecord, _ handle: LibUSBDeviceHandle?) -> USBLink? {
    let running = libusb_get_device_speed(record.device)
    guard let speed = USBSpeed(rawValue: Int(running)) else { return nil }
    let capable = handle.flatMap { USBSpeed(rawValue: Int(msh_libusb_capable_speed($0.raw, running))) }
    return USBLink(speed: speed, capable: capable)
}

private func openProblem(_ error: LibUSBError) -> String {
    error == .access ? "no permission to open it: \(error.name)" : "cannot open it: \(error.name)"
}

// MARK: The pipe

/// The PTP interface of an open device: claimed, with its endpoints found. Transfers from several threads
/// at once are fine (libusb is thread-safe); `close` waits for none of them. Bulk and interrupt transfers
/// go through `msh_libusb_transfer`, so that `interruptTransfers` ends one in progress within 0.1 s.
final class LibUSBPipe: USBPipe, @unchecked Sendable {
    // Safe because it wraps C handles that libusb lets any thread use; `interrupted` is read and written
    // atomically by C; the one flag of its own is in a Locked.
    let handle: LibUSBDeviceHandle
    private let interfaceNumber: Int32
    let bulkInAddress: UInt8
    private let bulkOutAddress: UInt8
    private let interruptInAddress: UInt8?
    private let alternateSetting: Int32
    let bulkInPacketSize: Int
    let bulkOutPacketSize: Int
    var hasInterruptIn: Bool { interruptInAddress != nil }
    private let closed = Locked(false)
    /// Raised by `interruptTransfers` (read by C, atomically).
    let interrupted: UnsafeMutablePointer<Int32> = {
        let flag = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
        flag.initialize(to: 0)
        return flag
    }()
    /// Keeps the device referenced for as long as the pipe is open.
    private let list: LibUSBDeviceList

    /// Opens the device, detaches a kernel driver bound to the interface where libusb can, and claims it.
    init(record: LibUSBDeviceRecord, list: LibUSBDeviceList, camera: USBCameraDescription) throws {
        guard let interface = record.interfaces.map(\.summary).first(where: { $0.number == camera.interfaceNumber }),
            let endpoints = interface.ptpEndpoints
        else { throw USBCameraError.notACamera(camera) }
        let handle: LibUSBDeviceHandle
        do {
            handle = try LibUSBDeviceHandle(record)
        } catch {
            throw USBCameraError.cannotOpen(camera, error, access: error == .access ? USBHolderScan().access(of: camera) : nil)
        }
        self.handle = handle
        self.list = list
        interfaceNumber = Int32(interface.number)
        bulkInAddress = endpoints.bulkIn.address
        bulkOutAddress = endpoints.bulkOut.address
        interruptInAddress = endpoints.interruptIn?.address
        alternateSetting = Int32(interface.alternateSetting)
        bulkInPacketSize = max(endpoints.bulkIn.maxPacketSize, 8)
        bulkOutPacketSize = max(endpoints.bulkOut.maxPacketSize, 8)
        // Linux lets libusb detach a kernel driver on claim and re-attach it on release; elsewhere this
        // answers LIBUSB_ERROR_NOT_SUPPORTED and a driver, if any, makes the claim fail as busy.
        _ = libusb_set_auto_detach_kernel_driver(handle.raw, 1)
        do {
            try check { libusb_claim_interface(handle.raw, interfaceNumber) }
        } catch {
            // Busy: say who holds it (the processes with its node open, a kernel driver on the interface).
            throw USBCameraError.cannotClaim(camera, error, holders: error == .busy ? USBHolderScan().holders(of: camera) : nil)
        }
        if interface.alternateSetting != 0 {
            _ = libusb_set_interface_alt_setting(handle.raw, interfaceNumber, Int32(interface.alternateSetting))
        }
    }

    deinit {
        close()
        interrupted.deallocate()
    }

    private func endpoint(_ role: USBEndpointRole) -> UInt8 {
        switch role {
        case .bulkIn: bulkInAddress
        case .bulkOut: bulkOutAddress
        case .interruptIn: interruptInAddress ?? 0x81
        }
    }

    func openHandle() throws(LibUSBError) -> OpaquePointer {
        let isClosed = closed.withLock { $0 }
        if isClosed { throw .noDevice }
        if msh_flag_is_raised(interrupted) != 0 { throw .interrupted }
        return handle.raw
    }

    func interruptTransfers() { msh_flag_raise(interrupted) }

    /// One bulk or interrupt transfer that `interruptTransfers` can end (LIBUSB_ERROR_INTERRUPTED then).
    private func transfer(
        _ address: UInt8, interrupt: Bool, _ pointer: UnsafeMutablePointer<UInt8>?, _ count: Int32,
        _ transferred: inout Int32, _ timeout: TimeInterval
    ) -> Int32 {
        let type = UInt8(interrupt ? LIBUSB_TRANSFER_TYPE_INTERRUPT.rawValue : LIBUSB_TRANSFER_TYPE_BULK.rawValue)
        return msh_libusb_transfer(
            handle.context.raw, handle.raw, address, type, pointer, count, &transferred, milliseconds(timeout),
            interrupted)
    }

    /// True when a transfer ended because `interruptTransfers` was called.
    func wasInterrupted(_ status: Int32) -> Bool {
        status == LIBUSB_ERROR_INTERRUPTED.rawValue && msh_flag_is_raised(interrupted) != 0
    }

    func bulkOut(_ bytes: UnsafeRawBufferPointer, timeout: TimeInterval) throws {
        _ = try openHandle()
        var offset = 0
        // A transfer that times out part-way reports what went; continue only if something did.
        repeat {
            var transferred: Int32 = 0
            let pointer = UnsafeMutablePointer(mutating: bytes.baseAddress?.advanced(by: offset)
                .assumingMemoryBound(to: UInt8.self))
            let count = Int32(bytes.count - offset)
            let status = transfer(bulkOutAddress, interrupt: false, pointer, count, &transferred, timeout)
            offset += Int(transferred)
            if status == 0 { break }
            if wasInterrupted(status) { throw LibUSBError.interrupted }
            if status == LIBUSB_ERROR_INTERRUPTED.rawValue { continue }
            if status == LIBUSB_ERROR_TIMEOUT.rawValue, transferred > 0, offset < bytes.count { continue }
            throw LibUSBError(rawValue: status)
        } while offset < bytes.count
    }

    func bulkIn(into buffer: UnsafeMutableRawBufferPointer, timeout: TimeInterval) throws -> Int {
        try transferIn(address: bulkInAddress, into: buffer, timeout: timeout, interrupt: false)
    }

    func interruptIn(into buffer: UnsafeMutableRawBufferPointer, timeout: TimeInterval) throws -> Int {
        guard let interruptInAddress else { throw LibUSBError.notSupported }
        return try transferIn(address: interruptInAddress, into: buffer, timeout: timeout, interrupt: true)
    }

    private func transferIn(
        address: UInt8, into buffer: UnsafeMutableRawBufferPointer, timeout: TimeInterval, interrupt: Bool
    ) throws -> Int {
        _ = try openHandle()
        let pointer = buffer.baseAddress?.assumingMemoryBound(to: UInt8.self)
        while true {
            var transferred: Int32 = 0
            let status = transfer(address, interrupt: interrupt, pointer, Int32(buffer.count), &transferred, timeout)
            if status == 0 { return Int(transferred) }
            if wasInterrupted(status) { throw LibUSBError.interrupted }
            if status == LIBUSB_ERROR_INTERRUPTED.rawValue, transferred == 0 { continue }
            // Bytes that arrived before a timeout are part of the stream: hand them over.
            if status == LIBUSB_ERROR_TIMEOUT.rawValue, transferred > 0 { return Int(transferred) }
            throw LibUSBError(rawValue: status)
        }
    }

    func classRequestOut(_ request: UInt8, value: UInt16, data: [UInt8], timeout: TimeInterval) throws {
        let raw = try openHandle()
        var data = data
        let requestType = UInt8(
            LIBUSB_ENDPOINT_OUT.rawValue | LIBUSB_REQUEST_TYPE_CLASS.rawValue | LIBUSB_RECIPIENT_INTERFACE.rawValue)
        try check {
            libusb_control_transfer(
                raw, requestType, request, value, UInt16(interfaceNumber), &data, UInt16(data.count),
                milliseconds(timeout))
        }
    }

    func classRequestIn(_ request: UInt8, value: UInt16, length: Int, timeout: TimeInterval) throws -> [UInt8] {
        let raw = try openHandle()
        var data = [UInt8](repeating: 0, count: length)
        let requestType = UInt8(
            LIBUSB_ENDPOINT_IN.rawValue | LIBUSB_REQUEST_TYPE_CLASS.rawValue | LIBUSB_RECIPIENT_INTERFACE.rawValue)
        let count = try check {
            libusb_control_transfer(
                raw, requestType, request, value, UInt16(interfaceNumber), &data, UInt16(length), milliseconds(timeout))
        }
        return Array(data[0..<Int(count)])
    }

    func clearHalt(_ role: USBEndpointRole) throws {
        let raw = try openHandle()
        try check { libusb_clear_halt(raw, endpoint(role)) }
    }

    func resetPort() throws {
        let raw = try openHandle()
        try check { libusb_reset_device(raw) }
        // libusb re-claims what was claimed; claiming again is a no-op then, and the claim where it was not.
        try check { libusb_claim_interface(raw, interfaceNumber) }
        if alternateSetting != 0 { _ = libusb_set_interface_alt_setting(raw, interfaceNumber, alternateSetting) }
    }

    func close() {
        let first = closed.withLock { closed in
            defer { closed = true }
            return !closed
        }
        guard first else { return }
        // Gives the interface back (and re-attaches a kernel driver detached on claim); the handle closes
        // when the last reference goes.
        _ = libusb_release_interface(handle.raw, interfaceNumber)
    }
}

/// Opens the first device `selector` matches and claims its PTP interface.
func libUSBOpen(_ selector: USBCameraSelector) throws -> (LibUSBPipe, USBCameraDescription) {
    guard let context = LibUSBContext.make() else { throw USBCameraError.noUSB }
    let list = LibUSBDeviceList(context: context)
    let cameras = libUSBCameras(in: list)
    guard let camera = cameras.first(where: selector.matches),
        let record = list.records.first(where: { $0.bus == camera.bus && $0.address == camera.address })
    else { throw USBCameraError.notFound(selector, available: cameras) }
    return (try LibUSBPipe(record: record, list: list, camera: camera), camera)
}

/// Every attached PTP/MTP device; empty on a machine without USB.
func libUSBListCameras() -> [USBCameraDescription] {
    guard let context = LibUSBContext.make() else { return [] }
    return libUSBCameras(in: LibUSBDeviceList(context: context))
}
