import Foundation

/// Who holds a USB camera that could not be claimed: the programs with its device node
/// (`/dev/bus/usb/BBB/DDD`) open, a kernel driver bound to its PTP interface, and what udev calls it (the
/// name gvfs gives its mount). Facts only; `USBCameraError` puts them into words.
public struct USBHolders: Equatable, Sendable {
    /// A process with the device node open.
    public struct Holder: Equatable, Sendable {
        public var pid: Int32
        /// The program's name: the last component of its argv[0], else its `comm`.
        public var name: String
        public init(pid: Int32, name: String) {
            self.pid = pid
            self.name = name
        }

        /// Which gvfs backend this is, if any: it serves the camera as a `gphoto2://` or `mtp://` mount.
        public var gvfsScheme: String? {
            if name.hasPrefix("gvfsd-gphoto2") || name.hasPrefix("gvfs-gphoto2") { return "gphoto2" }
            if name.hasPrefix("gvfsd-mtp") || name.hasPrefix("gvfs-mtp") { return "mtp" }
            return nil
        }
    }

    /// Processes (other than this one) with the device node open, by pid.
    public var processes: [Holder]
    /// The driver bound to the PTP interface when it is not usbfs (the one programs claim through): a
    /// kernel driver, named and never unbound.
    public var kernelDriver: String?
    /// Processes whose descriptors this user may not read (another user's, without root): the holder may
    /// be among them.
    public var unreadable: Int
    /// udev's ID_SERIAL of the device (`Canon_Inc._Canon_Digital_Camera_0123`), which gvfs names its mounts
    /// by: `gphoto2://ID_SERIAL/`, `mtp://ID_SERIAL/`. nil when udev's database says nothing of it.
    public var udevSerial: String?

    public init(processes: [Holder] = [], kernelDriver: String? = nil, unreadable: Int = 0, udevSerial: String? = nil) {
        self.processes = processes
        self.kernelDriver = kernelDriver
        self.unreadable = unreadable
        self.udevSerial = udevSerial
    }

    /// Nothing found that holds it.
    public var isEmpty: Bool { processes.isEmpty && kernelDriver == nil }

    /// The gvfs mounts to ask `gio mount -u` to release: one per gvfs backend that holds the device
    /// (`gphoto2://Canon_Inc._EOS_R6_0123/`). Needs the udev serial, else `fallbackSerial`.
    public func gvfsMounts(fallbackSerial: String) -> [String] {
        let serial = Self.uriEscaped(udevSerial ?? fallbackSerial)
        var schemes: [String] = []
        for scheme in processes.compactMap(\.gvfsScheme) where !schemes.contains(scheme) { schemes.append(scheme) }
        return schemes.map { "\($0)://\(serial)/" }
    }

    /// As GLib's `g_uri_escape_string(s, NULL, FALSE)`: every byte but the unreserved characters escaped.
    static func uriEscaped(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            let unreserved = (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte)
                || "-._~".utf8.contains(byte)
            out += unreserved ? String(UnicodeScalar(byte)) : String(format: "%%%02X", byte)
        }
        return out
    }
}

extension USBCameraDescription {
    /// udev's ID_SERIAL worked out from the device's own strings, as udev's usb_id builds it
    /// (`VENDOR_MODEL_SERIAL`, whitespace and unsafe characters as `_`): for when udev's database is not there.
    public var udevStyleSerial: String {
        func clean(_ text: String) -> String {
            let words = text.split(whereSeparator: \.isWhitespace).joined(separator: "_")
            return String(words.map { $0.isASCII && ($0.isLetter || $0.isNumber || "#+-.:=@_".contains($0)) ? $0 : "_" })
        }
        let vendor = manufacturer.isEmpty ? hex(vendorID) : clean(manufacturer)
        let product = model.isEmpty ? hex(productID) : clean(model)
        return [vendor, product, clean(serialNumber)].filter { !$0.isEmpty }.joined(separator: "_")
    }

    /// The device node libusb opens: `/dev/bus/usb/001/004`.
    public var deviceNode: String { "/dev/bus/usb/\(pad(bus, 3))/\(pad(address, 3))" }
}

/// Finds who holds a USB device by reading `/proc` and `/sys` (and udev's database under `/run`), all
/// below `root`: "/" on a real machine, a folder of fakes in tests.
public struct USBHolderScan: Sendable {
    public var root: String
    /// This process, which has the device open itself and is left out.
    public var ownPID: Int32

    public init(root: String = "/", ownPID: Int32 = getpid()) {
        self.root = root.hasSuffix("/") ? String(root.dropLast()) : root
        self.ownPID = ownPID
    }

    private var files: FileManager { FileManager.default }

    public func holders(of camera: USBCameraDescription) -> USBHolders {
        var holders = USBHolders()
        let node = camera.deviceNode
        let proc = root + "/proc"
        let pids = ((try? files.contentsOfDirectory(atPath: proc)) ?? []).compactMap { Int32($0) }.sorted()
        for pid in pids where pid != ownPID {
            let fdFolder = "\(proc)/\(pid)/fd"
            let descriptors: [String]
            do {
                descriptors = try files.contentsOfDirectory(atPath: fdFolder)
            } catch let error as CocoaError where error.code == .fileReadNoPermission {
                holders.unreadable += 1
                continue
            } catch {
                continue  // gone meanwhile
            }
            let holds = descriptors.contains { (try? files.destinationOfSymbolicLink(atPath: "\(fdFolder)/\($0)")) == node }
            if holds { holders.processes.append(USBHolders.Holder(pid: pid, name: name(of: pid))) }
        }
        holders.kernelDriver = interfaceDriver(of: camera).flatMap { $0 == "usbfs" ? nil : $0 }
        holders.udevSerial = udevProperty("ID_SERIAL", of: camera)
        return holders
    }

    /// The program's name: argv[0]'s last component, else `comm` (15 characters at most).
    func name(of pid: Int32) -> String {
        let base = "\(root)/proc/\(pid)"
        if let cmdline = files.contents(atPath: base + "/cmdline"),
            let first = cmdline.split(separator: 0, omittingEmptySubsequences: false).first, !first.isEmpty
        {
            let argv0 = String(decoding: first, as: UTF8.self)
            // A program that rewrote its argv (a daemon's "name: state") keeps its first word.
            let program = argv0.split(separator: " ").first.map(String.init) ?? argv0
            if let last = program.split(separator: "/").last { return String(last) }
        }
        if let comm = files.contents(atPath: base + "/comm") {
            return String(decoding: comm, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return "pid \(pid)"
    }

    /// The driver bound to the camera's PTP interface (the last component of its sysfs `driver` link).
    func interfaceDriver(of camera: USBCameraDescription) -> String? {
        let devices = root + "/sys/bus/usb/devices"
        guard let entries = try? files.contentsOfDirectory(atPath: devices) else { return nil }
        func number(_ path: String, radix: Int = 10) -> Int? {
            files.contents(atPath: path).flatMap {
                Int(String(decoding: $0, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines), radix: radix)
            }
        }
        guard let device = entries.sorted().first(where: {
            !$0.contains(":") && number("\(devices)/\($0)/busnum") == camera.bus && number("\(devices)/\($0)/devnum") == camera.address
        }) else { return nil }
        for entry in entries.sorted() where entry.hasPrefix(device + ":") {
            guard number("\(devices)/\(entry)/bInterfaceNumber", radix: 16) == camera.interfaceNumber else { continue }
            guard let target = try? files.destinationOfSymbolicLink(atPath: "\(devices)/\(entry)/driver") else { return nil }
            return target.split(separator: "/").last.map(String.init)
        }
        return nil
    }

    /// A property from udev's database entry of the device node (`/run/udev/data/c189:MINOR`, `E:NAME=VALUE`).
    func udevProperty(_ name: String, of camera: USBCameraDescription) -> String? {
        // USB device nodes are character major 189, minor (bus - 1) * 128 + (address - 1).
        let minor = (camera.bus - 1) * 128 + (camera.address - 1)
        guard let data = files.contents(atPath: "\(root)/run/udev/data/c189:\(minor)") else { return nil }
        let prefix = "E:\(name)="
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") where line.hasPrefix(prefix) {
            return String(line.dropFirst(prefix.count))
        }
        return nil
    }
}
