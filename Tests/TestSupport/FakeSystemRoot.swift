import Foundation

/// A pretend `/proc`, `/sys` and udev database in a temporary folder, for code that reads them below a
/// root it is given (who holds a USB device): processes with open descriptors, USB devices and the driver
/// of each interface, udev properties.
public final class FakeSystemRoot: Sendable {
    public let folder: TemporaryFolder
    public var path: String { folder.path }

    public init() throws { folder = try TemporaryFolder("fake-root") }

    /// A process: its argv (NUL-separated in `cmdline`), its `comm`, and descriptors pointing at `openFiles`.
    public func process(_ pid: Int32, argv: [String], comm: String? = nil, openFiles: [String]) throws {
        try folder.write("proc/\(pid)/cmdline", Array(argv.joined(separator: "\0").utf8) + [0])
        let program: Substring = (argv.first ?? "").split(separator: "/").last ?? ""
        let name: String = comm ?? String(program.prefix(15))
        try folder.write("proc/\(pid)/comm", text: name + "\n")
        try FileManager.default.createDirectory(atPath: folder.path("proc/\(pid)/fd"), withIntermediateDirectories: true)
        for (index, file) in openFiles.enumerated() { try openFile(pid, fd: index + 3, file) }
    }

    /// One more descriptor of `pid` pointing at `file` (a link that need not resolve, as in /proc).
    public func openFile(_ pid: Int32, fd: Int, _ file: String) throws {
        try FileManager.default.createSymbolicLink(atPath: folder.path("proc/\(pid)/fd/\(fd)"), withDestinationPath: file)
    }

    /// Closes every descriptor of `pid` that points at `file`.
    public func closeFile(_ pid: Int32, _ file: String) {
        let fds = folder.path("proc/\(pid)/fd")
        for name in (try? FileManager.default.contentsOfDirectory(atPath: fds)) ?? []
        where (try? FileManager.default.destinationOfSymbolicLink(atPath: fds + "/" + name)) == file {
            try? FileManager.default.removeItem(atPath: fds + "/" + name)
        }
    }

    /// A USB device in sysfs (`/sys/bus/usb/devices/NAME` with busnum and devnum) with one interface, bound
    /// to `driver` (nil: none).
    public func usbDevice(_ name: String, bus: Int, address: Int, interface: Int = 0, driver: String?) throws {
        let devices = "sys/bus/usb/devices/"
        try folder.write(devices + name + "/busnum", text: "\(bus)\n")
        try folder.write(devices + name + "/devnum", text: "\(address)\n")
        let interfaceFolder = devices + name + ":1.\(interface)"
        try folder.write(interfaceFolder + "/bInterfaceNumber", text: String(format: "%02x\n", interface))
        if let driver {
            try FileManager.default.createSymbolicLink(
                atPath: folder.path(interfaceFolder + "/driver"), withDestinationPath: "../../../../../../bus/usb/drivers/\(driver)")
        }
    }

    /// udev's database entry of a USB device node (`/run/udev/data/c189:MINOR`) with these properties.
    public func udev(bus: Int, address: Int, _ properties: [String: String]) throws {
        let minor = (bus - 1) * 128 + (address - 1)
        try folder.write("run/udev/data/c189:\(minor)", text: properties.sorted { $0.key < $1.key }.map { "E:\($0.key)=\($0.value)\n" }.joined())
    }
}
