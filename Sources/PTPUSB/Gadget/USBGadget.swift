#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif
import Foundation
import POSIX
import PTP

/// This computer as a USB device: a gadget made through the kernel's configfs (`libcomposite`) with one
/// FunctionFS function of the still image class, bound to a USB device controller (a board's device-mode
/// port, or `dummy_hcd`, which puts it on this computer's own bus). A host sees a camera on a cable. Each
/// time the host configures it, `nextConnection()` hands over a `GadgetResponderConnection`; a cable pulled
/// ends that connection's transfers. Needs root (configfs and mount).
public final class USBGadget: Sendable {
    /// What the device says it is, in its device descriptor and strings.
    public struct Identity: Sendable {
        public var vendorID: UInt16
        public var productID: UInt16
        public var manufacturer: String
        public var product: String
        public var serialNumber: String

        public init(vendorID: UInt16, productID: UInt16, manufacturer: String, product: String, serialNumber: String) {
            self.vendorID = vendorID
            self.productID = productID
            self.manufacturer = manufacturer
            self.product = product
            self.serialNumber = serialNumber
        }
    }

    public static let configfs = "/sys/kernel/config/usb_gadget"
    public let identity: Identity
    /// The gadget's folder under configfs, and the FunctionFS instance's name.
    public let name: String
    private let state = LockedCondition(State())

    private struct State {
        var ep0: Int32 = -1
        /// bulk-in, bulk-out, interrupt-in
        var endpoints: [Int32] = []
        var mountPoint: String?
        var udc: String?
        /// Counts the host's configurations of the function: a new one is a new connection.
        var enabled = 0
        var connected = false
        var handedOver = 0
        var stopping = false
        var events: JoinableThread?
        var current: GadgetResponderConnection?
        /// The ep0 reader returned: its descriptor may be closed.
        var readerEnded = false
    }

    public init(identity: Identity, name: String = "mediashell") {
        self.identity = identity
        self.name = name
    }

    private var folder: String { Self.configfs + "/" + name }

    /// The controller it is bound to, once started.
    public var controller: String? { state.withLock { $0.udc } }

    /// The USB device controllers of this computer (`/sys/class/udc`).
    public static func controllers() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/sys/class/udc")) ?? []).sorted()
    }

    /// Makes the gadget, mounts its FunctionFS, writes the function's descriptors and binds it to `udc` (the
    /// first controller when nil): the host sees the device arrive. Undone by `stop()`, also when it fails.
    public func start(udc: String? = nil) throws {
        guard FileManager.default.fileExists(atPath: Self.configfs) else {
            throw GadgetError.noConfigfs
        }
        guard let controller = udc ?? Self.controllers().first else { throw GadgetError.noController }
        do {
            releaseLeftovers()
            try makeConfiguration()
            let mountPoint = try makePrivateFolder(under: "/run", prefix: "mediashell-gadget-")
            state.withLock { $0.mountPoint = mountPoint }
            try systemCall("mount", path: mountPoint) { mount(name, mountPoint, "functionfs", 0, nil) }
            let ep0 = try systemCall("open", path: mountPoint + "/ep0") { open(mountPoint + "/ep0", O_RDWR | O_CLOEXEC) }
            state.withLock { $0.ep0 = ep0 }
            try writeAll(ep0, FunctionFSDescriptors.stillImageInterface())
            try writeAll(ep0, FunctionFSDescriptors.strings(interfaceName: "MTP"))
            var endpoints: [Int32] = []
            for number in 1...3 {
                let path = mountPoint + "/ep\(number)"
                endpoints.append(try systemCall("open", path: path) { open(path, O_RDWR | O_CLOEXEC) })
            }
            state.withLock { $0.endpoints = endpoints }
            try write(controller, to: folder + "/UDC")
            state.withLock { $0.udc = controller }
            // The events of the binding wait in ep0 until this reads them.
            let thread = try JoinableThread(name: "gadget-ep0") { [self] in readControlEvents(ep0) }
            state.withLock { $0.events = thread }
        } catch {
            stop()
            throw error
        }
    }

    /// Waits until the host configures the device, then returns the connection that serves it until the host
    /// lets go (a pulled cable, a reset). Nil once `stop()` was called.
    public func nextConnection() -> GadgetResponderConnection? {
        let handed = state.wait(until: nil, for: { $0.stopping || ($0.connected && $0.enabled > $0.handedOver) }) {
            state -> GadgetResponderConnection? in
            guard !state.stopping else { return nil }
            state.handedOver = state.enabled
            let connection = GadgetResponderConnection(
                bulkIn: state.endpoints[0], bulkOut: state.endpoints[1], interrupt: state.endpoints[2],
                serial: identity.serialNumber)
            state.current = connection
            return connection
        }
        return handed ?? nil
    }

    /// Unbinds the gadget (the host sees it leave), ends its connection, and removes what `start` made. The
    /// unbinding is what ends the ep0 reader (FunctionFS reports it); should it not end within two seconds,
    /// the descriptors and the mount are left to the process's exit rather than closed under it.
    public func stop() {
        let (udc, events) = state.change { state -> (String?, JoinableThread?) in
            state.stopping = true
            defer { state.events = nil }
            return (state.udc, state.events)
        }
        if udc != nil { try? write("", to: folder + "/UDC") }
        state.withLock { $0.current }?.close()
        if let events {
            guard state.wait(until: .after(2), for: { $0.readerEnded }) else { return }
            events.join()
        }
        let (ep0, endpoints, mountPoint) = state.withLock { state in
            defer { state.ep0 = -1; state.endpoints = []; state.mountPoint = nil; state.udc = nil }
            return (state.ep0, state.endpoints, state.mountPoint)
        }
        for fd in endpoints { close(fd) }
        if ep0 >= 0 { close(ep0) }
        if let mountPoint {
            umount2(mountPoint, 0)
            rmdir(mountPoint)
        }
        removeConfiguration()
    }

    // MARK: ep0

    /// Reads FunctionFS's events until ep0 fails (closed or unmounted): configurations come and go, and
    /// the still image class's control requests are answered.
    private func readControlEvents(_ ep0: Int32) {
        defer { state.change { $0.readerEnded = true } }
        var buffer = [UInt8](repeating: 0, count: FunctionFSEvent.size * 8)
        while !state.withLock({ $0.stopping }) {
            let count = buffer.withUnsafeMutableBytes { read(ep0, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return }
            for event in FunctionFSEvent.decode(Array(buffer[0..<count])) {
                switch event {
                case .enable:
                    state.change { $0.enabled += 1; $0.connected = true }
                case .disable, .unbind, .suspend:
                    let current = state.change { state -> GadgetResponderConnection? in
                        state.connected = false
                        return state.current
                    }
                    if event != .suspend { current?.hostLeft() }
                case .setup(let request):
                    answer(request, on: ep0)
                case .bind, .resume, .unknown:
                    break
                }
            }
        }
    }

    /// Answers a control request of the still image class (PIMA 15740 annex D): Get Device Status says OK
    /// (or busy while a data phase is under way), Cancel is read and ends the phase, Device Reset is
    /// acknowledged; anything else is stalled.
    private func answer(_ request: FunctionFSEvent.ControlRequest, on ep0: Int32) {
        let current = state.withLock { $0.current }
        var none: UInt8 = 0
        switch (request.isClassRequest, request.request) {
        case (true, 0x67) where request.isDeviceToHost:
            let code: UInt16 = current?.isBusy == true ? ResponseCode.deviceBusy.rawValue : ResponseCode.ok.rawValue
            let status: [UInt8] = [4, 0, UInt8(code & 0xFF), UInt8(code >> 8)]
            _ = Array(status.prefix(Int(request.length))).withUnsafeBytes { Glibc.write(ep0, $0.baseAddress, $0.count) }
        case (true, 0x64) where !request.isDeviceToHost:
            var data = [UInt8](repeating: 0, count: Int(request.length))
            _ = data.withUnsafeMutableBytes { read(ep0, $0.baseAddress, $0.count) }
            current?.cancelled()
        case (true, 0x66) where !request.isDeviceToHost:
            _ = read(ep0, &none, 0)
        default:
            // A read for a request whose data goes to the host, or a write for one from it, stalls ep0.
            if request.isDeviceToHost { _ = read(ep0, &none, 0) } else { _ = Glibc.write(ep0, &none, 0) }
        }
    }

    // MARK: configfs

    /// What a run that ended without `stop()` (killed) left: the gadget still bound, its FunctionFS still
    /// mounted (a second mount of the same instance fails). Unbound and unmounted, so that `start` begins
    /// afresh.
    private func releaseLeftovers() {
        let udcFile = folder + "/UDC"
        if let bound = try? String(contentsOfFile: udcFile, encoding: .utf8),
            !bound.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        {
            try? write("", to: udcFile)
        }
        guard let table = try? String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8) else { return }
        for line in table.split(separator: "\n") {
            // ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS ... - FSTYPE SOURCE SUPEROPTIONS
            let halves = line.components(separatedBy: " - ")
            guard halves.count == 2 else { continue }
            let after = halves[1].split(separator: " ")
            let before = halves[0].split(separator: " ")
            guard after.count >= 2, after[0] == "functionfs", after[1] == name, before.count >= 5 else { continue }
            let mountPoint = String(before[4]).replacingOccurrences(of: "\\040", with: " ")
            umount2(mountPoint, Int32(MNT_DETACH))
            if mountPoint.hasPrefix("/run/mediashell-gadget-") { rmdir(mountPoint) }
        }
    }

    private func makeConfiguration() throws {
        let g = folder
        for path in [g, g + "/strings/0x409", g + "/configs/c.1", g + "/configs/c.1/strings/0x409", g + "/functions/ffs." + name] {
            if !FileManager.default.fileExists(atPath: path) {
                try systemCall("mkdir", path: path) { mkdir(path, 0o755) }
            }
        }
        try write(hex(identity.vendorID), to: g + "/idVendor")
        try write(hex(identity.productID), to: g + "/idProduct")
        try write(identity.manufacturer, to: g + "/strings/0x409/manufacturer")
        try write(identity.product, to: g + "/strings/0x409/product")
        try write(identity.serialNumber, to: g + "/strings/0x409/serialnumber")
        try write("PTP", to: g + "/configs/c.1/strings/0x409/configuration")
        let link = g + "/configs/c.1/ffs." + name
        if !FileManager.default.fileExists(atPath: link) {
            try systemCall("symlink", path: link) { symlink(g + "/functions/ffs." + name, link) }
        }
    }

    /// Removes the gadget's folders in the order configfs allows (each holds only what the kernel made).
    private func removeConfiguration() {
        let g = folder
        unlink(g + "/configs/c.1/ffs." + name)
        for path in [g + "/configs/c.1/strings/0x409", g + "/configs/c.1", g + "/functions/ffs." + name, g + "/strings/0x409", g] {
            rmdir(path)
        }
    }

    private func write(_ text: String, to path: String) throws {
        let fd = try systemCall("open", path: path) { open(path, O_WRONLY | O_CLOEXEC) }
        defer { close(fd) }
        do {
            try writeAll(fd, Array((text + "\n").utf8))
        } catch {
            throw SystemError(.write, path: path, errno: error.errno)
        }
    }

    private func hex(_ value: UInt16) -> String { "0x" + String(value, radix: 16) }
}

/// Why a gadget could not be made.
public enum GadgetError: Error, CustomStringConvertible {
    case noConfigfs
    case noController

    public var description: String {
        switch self {
        case .noConfigfs:
            "no USB gadget configfs at \(USBGadget.configfs) (as root: modprobe libcomposite usb_f_fs; "
                + "mount -t configfs none /sys/kernel/config)"
        case .noController:
            "no USB device controller in /sys/class/udc (a board's device-mode port, or modprobe dummy_hcd for one "
                + "on this computer's own bus)"
        }
    }
}
