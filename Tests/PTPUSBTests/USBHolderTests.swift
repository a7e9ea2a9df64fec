import Connectors
import Foundation
import MediaManager
import PTPUSB
import TestSupport
import Testing

/// Who holds a busy USB camera (issue 29), read from a fake /proc, /sys and udev database; and `--release`,
/// which asks gvfs to unmount and never ends a process.
@Suite(.tags(.process), .notInFastRun) struct USBHolderTests {
    static let camera = USBCameraDescription(
        bus: 1, address: 4, vendorID: 0x04A9, productID: 0x32B4, manufacturer: "Canon Inc.", model: "EOS R6", serialNumber: "0123")

    /// gvfsd-gphoto2 with the node open, a shell without, this process (left out) with it open too.
    static func desktop(driver: String? = "usbfs") throws -> FakeSystemRoot {
        let root = try FakeSystemRoot()
        try root.process(2211, argv: ["/usr/libexec/gvfsd-gphoto2", "--spawner", ":1.3", "/org/gtk/gvfs/exec_spaw/2"],
                         openFiles: ["/dev/null", "socket:[1234]", "/dev/bus/usb/001/004"])
        try root.process(3000, argv: ["-bash"], openFiles: ["/dev/pts/0", "/dev/bus/usb/001/005"])
        try root.process(999, argv: ["mediashell"], openFiles: ["/dev/bus/usb/001/004"])
        try root.usbDevice("1-4", bus: 1, address: 4, driver: driver)
        try root.usbDevice("1-5", bus: 1, address: 5, driver: nil)
        try root.udev(bus: 1, address: 4, ["ID_SERIAL": "Canon_Inc._Canon_Digital_Camera_0123", "ID_VENDOR": "Canon_Inc."])
        return root
    }

    @Test func namesTheProcessWithTheDeviceOpen() throws {
        let root = try Self.desktop()
        let holders = USBHolderScan(root: root.path, ownPID: 999).holders(of: Self.camera)
        #expect(holders.processes == [USBHolders.Holder(pid: 2211, name: "gvfsd-gphoto2")])
        #expect(holders.kernelDriver == nil, "usbfs is how programs claim, not a kernel driver")
        #expect(holders.udevSerial == "Canon_Inc._Canon_Digital_Camera_0123")
        #expect(holders.gvfsMounts(fallbackSerial: "x") == ["gphoto2://Canon_Inc._Canon_Digital_Camera_0123/"])
        // Without udev's database, the serial is made as udev makes it, escaped as GLib escapes it.
        var bare = holders
        bare.udevSerial = nil
        #expect(Self.camera.udevStyleSerial == "Canon_Inc._EOS_R6_0123")
        #expect(bare.gvfsMounts(fallbackSerial: "A b/c") == ["gphoto2://A%20b%2Fc/"])
    }

    @Test func aProcessWhoseArgvIsGoneIsNamedByItsComm() throws {
        let root = try FakeSystemRoot()
        try root.process(4100, argv: [], comm: "gvfsd-mtp", openFiles: ["/dev/bus/usb/001/004"])
        let holders = USBHolderScan(root: root.path, ownPID: 1).holders(of: Self.camera)
        #expect(holders.processes == [USBHolders.Holder(pid: 4100, name: "gvfsd-mtp")])
        #expect(holders.gvfsMounts(fallbackSerial: "S") == ["mtp://S/"])
    }

    @Test func aKernelDriverOnTheInterfaceIsNamed() throws {
        let root = try Self.desktop(driver: "usb-storage")
        let holders = USBHolderScan(root: root.path, ownPID: 999).holders(of: Self.camera)
        #expect(holders.kernelDriver == "usb-storage")
    }

    @Test func nothingHoldsAFreeCamera() throws {
        let root = try Self.desktop()
        var free = Self.camera
        free.address = 6
        let holders = USBHolderScan(root: root.path, ownPID: 999).holders(of: free)
        #expect(holders.isEmpty && holders.udevSerial == nil)
    }

    /// Another user's process cannot be read without root: counted, so the message can say so.
    @Test(.enabled(if: getuid() != 0, "root reads every process")) func unreadableProcessesAreCounted() throws {
        let root = try Self.desktop()
        try root.process(5000, argv: ["other"], openFiles: [])
        chmod(root.folder.path("proc/5000/fd"), 0)
        defer { chmod(root.folder.path("proc/5000/fd"), 0o755) }
        let holders = USBHolderScan(root: root.path, ownPID: 999).holders(of: Self.camera)
        #expect(holders.unreadable == 1)
    }

    /// `--release`: gio is asked to unmount gvfs's mount of the camera; once gvfs closed the device the camera
    /// is free. (The fake gio closes the descriptor as gvfsd-gphoto2 does when unmounted.)
    @Test func releaseAsksGvfsToUnmountAndSeesTheCameraFree() throws {
        let bus = VirtualUSBBus([(model: "EOS", serial: "0123")])
        let camera = try #require(bus.attached.first)
        let root = try FakeSystemRoot()
        try root.process(2211, argv: ["/usr/libexec/gvfsd-gphoto2"], openFiles: [camera.deviceNode])
        try root.udev(bus: camera.bus, address: camera.address, ["ID_SERIAL": "mediashell_EOS_0123"])
        var options = CameraConnector.Options()
        options.usbBus = bus
        let asked = LockedBox([String]())
        let release = try CameraConnector.releaseUSB(
            .usbAddress(bus: camera.bus, address: camera.address), options: options,
            scan: USBHolderScan(root: root.path, ownPID: 1)
        ) { mount in
            asked.append(mount)
            root.closeFile(2211, camera.deviceNode)
            return USBRelease.Request(mount: mount, exitCode: 0)
        }
        #expect(asked.value == ["gphoto2://mediashell_EOS_0123/"])
        #expect(release.before.processes.map(\.pid) == [2211])
        #expect(release.requests == [USBRelease.Request(mount: "gphoto2://mediashell_EOS_0123/", exitCode: 0)])
        #expect(release.isFree)
    }

    /// A program that is not gvfs is left alone: nothing is asked, nothing is ended, and it is still there.
    @Test func releaseNeverEndsAnotherProgram() throws {
        let bus = VirtualUSBBus([(model: "EOS", serial: "")])
        let camera = try #require(bus.attached.first)
        let root = try FakeSystemRoot()
        try root.process(3333, argv: ["gphoto2", "--wait-event"], openFiles: [camera.deviceNode])
        var options = CameraConnector.Options()
        options.usbBus = bus
        let release = try CameraConnector.releaseUSB(
            .usbFirst, options: options, scan: USBHolderScan(root: root.path, ownPID: 1)
        ) { mount in
            Issue.record("asked to unmount \(mount)")
            return USBRelease.Request(mount: mount, exitCode: 0)
        }
        #expect(release.requests.isEmpty)
        #expect(!release.isFree && release.after.processes == [USBHolders.Holder(pid: 3333, name: "gphoto2")])
        #expect(throws: CameraOpenError.self) {
            try CameraConnector.releaseUSB(.simulator(path: nil), options: options, scan: USBHolderScan(root: root.path))
        }
    }

    /// Access denied: whether the rule is installed, applied to the device, and the user in its group.
    @Test func accessFactsComeFromTheRuleUdevAndTheGroup() throws {
        let root = try FakeSystemRoot()
        let scan = USBHolderScan(root: root.path, ownPID: 1)
        #expect(scan.access(of: Self.camera, groups: [1000]) == USBAccess())
        try root.folder.write("usr/lib/udev/rules.d/60-mediashell.rules", text: "# rule\n")
        try root.folder.write("etc/group", text: "root:x:0:\nplugdev:x:46:alice\n")
        #expect(scan.access(of: Self.camera, groups: [1000]) == USBAccess(installedRule: "/usr/lib/udev/rules.d/60-mediashell.rules", inGroup: false))
        try root.udev(bus: 1, address: 4, ["ID_MEDIASHELL": "1"])
        try root.folder.write("etc/udev/rules.d/60-mediashell.rules", text: "# local copy\n")
        #expect(scan.access(of: Self.camera, groups: [1000, 46]) == USBAccess(installedRule: "/etc/udev/rules.d/60-mediashell.rules", deviceTagged: true, inGroup: true))
    }
}
