import Connectors
import PTPUSB
import TestSupport
import Testing

/// The words of a busy USB camera (issue 29): who holds it, by name and pid, and the way out in one line;
/// and what `--release` says it did.
@Suite(.tags(.process), .notInFastRun) struct USBBusyWordsTests {
    let camera = USBCameraDescription(
        bus: 1, address: 4, vendorID: 0x04A9, productID: 0x32B4, manufacturer: "Canon Inc.", model: "EOS R6", serialNumber: "0123")

    /// Moved from PTPUSBTests: only ShellTests read an error's words.
    @Test func openErrorsSayWhatToDo() {
        let busy = USBCameraError.cannotClaim(camera, .busy).description
        #expect(busy.contains("LIBUSB_ERROR_BUSY") && busy.contains("gvfs") && busy.contains("gio mount -u"))
        let access = USBCameraError.cannotOpen(camera, .access).description
        #expect(access.contains("LIBUSB_ERROR_ACCESS") && access.contains("udev") && access.contains("04a9"))
        #expect(USBCameraError.notFound(.first, available: []).description.contains("no PTP/MTP camera"))
        #expect(USBCameraError.notFound(.id(vendor: 1, product: 2), available: [camera]).description.contains("usb:001,004"))
    }

    @Test func gvfsIsNamedWithTheWayOut() throws {
        let root = try FakeSystemRoot()
        try root.process(2211, argv: ["/usr/libexec/gvfsd-gphoto2", "--spawner", ":1.3"], openFiles: ["/dev/bus/usb/001/004"])
        try root.usbDevice("1-4", bus: 1, address: 4, driver: "usbfs")
        try root.udev(bus: 1, address: 4, ["ID_SERIAL": "Canon_Inc._Canon_Digital_Camera_0123"])
        let holders = USBHolderScan(root: root.path, ownPID: 1).holders(of: camera)
        let line = USBCameraError.cannotClaim(camera, .busy, holders: holders).description
        #expect(line == """
            usb:001,004 (Canon Inc. EOS R6) is held by gvfsd-gphoto2 (pid 2211): run 'gio mount -u \
            gphoto2://Canon_Inc._Canon_Digital_Camera_0123/' or 'mediashell --release usb:001,004', then try again
            """)
        #expect(!line.contains("\n"))
    }

    @Test func anotherProgramIsNamedAndLeftAlone() {
        let holders = USBHolders(processes: [.init(pid: 3333, name: "gphoto2"), .init(pid: 4100, name: "gvfsd-mtp")])
        #expect(USBCameraError.cannotClaim(camera, .busy, holders: holders).description == """
            usb:001,004 (Canon Inc. EOS R6) is held by gphoto2 (pid 3333) and gvfsd-mtp (pid 4100): run 'gio mount -u \
            mtp://Canon_Inc._EOS_R6_0123/' or 'mediashell --release usb:001,004', and end gphoto2 (pid 3333) \
            (mediashell never stops a program), then try again
            """)
    }

    @Test func aProgramThatIsNotGvfsIsNamedOnce() {
        let holders = USBHolders(processes: [.init(pid: 3333, name: "gphoto2")])
        #expect(USBCameraError.cannotClaim(camera, .busy, holders: holders).description == """
            usb:001,004 (Canon Inc. EOS R6) is held by gphoto2 (pid 3333): end it (mediashell never stops a program), \
            then try again
            """)
    }

    @Test func aKernelDriverIsNamedNotUnbound() {
        let line = USBCameraError.cannotClaim(camera, .busy, holders: USBHolders(kernelDriver: "usb-storage")).description
        #expect(line.hasPrefix("usb:001,004 (Canon Inc. EOS R6) is held by the kernel driver 'usb-storage' on interface 0"))
        #expect(line.contains("does not unbind"))
    }

    @Test func unseenHoldersAndNoneFoundKeepTheGeneralHint() {
        let unseen = USBCameraError.cannotClaim(camera, .busy, holders: USBHolders(unreadable: 3)).description
        #expect(unseen.contains("a program of another user") && unseen.contains("3 processes"))
        let none = USBCameraError.cannotClaim(camera, .busy, holders: USBHolders()).description
        #expect(none.contains("in use by another program") && none.contains("gio mount"))
    }

    @Test func releaseSaysWhatItDid() {
        var release = USBRelease(
            camera: camera, before: USBHolders(processes: [.init(pid: 2211, name: "gvfsd-gphoto2")]),
            requests: [.init(mount: "gphoto2://X/", exitCode: 0)], after: USBHolders())
        #expect(release.lines == ["asked gvfs to unmount gphoto2://X/ (gio mount -u)", "usb:001,004 (Canon Inc. EOS R6) is free now"])
        release.requests = [.init(mount: "gphoto2://X/", exitCode: nil, problem: "gio is not installed (Debian package libglib2.0-bin)")]
        release.after = release.before
        #expect(release.lines.first == "cannot run gio mount -u gphoto2://X/: gio is not installed (Debian package libglib2.0-bin)")
        #expect(release.lines.last?.hasPrefix("usb:001,004 (Canon Inc. EOS R6) is still held by gvfsd-gphoto2 (pid 2211)") == true)
        let idle = USBRelease(camera: camera, before: USBHolders(), requests: [], after: USBHolders())
        #expect(idle.lines == ["usb:001,004 (Canon Inc. EOS R6) is not held by any program"] && idle.isFree)
    }

    @Test func accessDeniedNamesTheRuleOrHowToInstallIt() {
        func line(_ access: USBAccess) -> String { USBCameraError.cannotOpen(camera, .access, access: access).description }
        let prefix = "no permission to open usb:001,004 (Canon Inc. EOS R6): LIBUSB_ERROR_ACCESS. "
        #expect(line(USBAccess()) == prefix + """
            No udev rule gives cameras to this user: install the mediashell package, or from its source 'sudo install \
            -m 644 scripts/packaging/60-mediashell.rules /etc/udev/rules.d/ && sudo udevadm control --reload', then \
            re-plug the camera (docs/install.md)
            """)
        let rule = "/usr/lib/udev/rules.d/60-mediashell.rules"
        #expect(line(USBAccess(installedRule: rule)).contains("is installed but udev has not applied it to this camera"))
        #expect(line(USBAccess(installedRule: rule, deviceTagged: true, inGroup: false)) == prefix + """
            /usr/lib/udev/rules.d/60-mediashell.rules gives it to the user at the seat and to the group plugdev; this \
            login is neither: 'sudo adduser $USER plugdev', then log in again
            """)
        #expect(line(USBAccess(installedRule: rule, deviceTagged: true, inGroup: nil)).contains("sudo groupadd --system plugdev"))
        #expect(line(USBAccess(installedRule: rule, deviceTagged: true, inGroup: true)).contains("ls -l /dev/bus/usb/001/004"))
    }
}


/// `mediashell --release` and `open --release` as a user runs them, on a virtual camera nothing holds.
@Suite(.enabled(if: ShellBinary.exists, "needs the built mediashell binary"), .tags(.process), .notInFastRun)
struct USBReleaseBinaryTests {
    @Test func releaseSaysTheCameraIsFreeAndOpenReleaseOpensIt() throws {
        let home = try TemporaryFolder("msh-release")
        let environment = ["HOME": home.path, "XDG_DATA_HOME": home.path + "/data", "MEDIASHELL_DEMO_USB_CAMERAS": "Alpha/A1"]
        let release = try ShellBinary.run(["--release", "usb:"], directory: home.path, environment: environment)
        #expect(release.status == 0, "\(release.standardError)")
        #expect(release.outputLines == ["usb:001,002 (mediashell Alpha) is not held by any program"], "\(release.outputLines)")
        let open = try ShellBinary.run(["-c", "open --release usb:serial=A1"], directory: home.path, environment: environment)
        #expect(open.status == 0, "\(open.standardError)")
        #expect(open.outputLines.first == "usb:001,002 (mediashell Alpha) is not held by any program", "\(open.outputLines)")
        #expect(open.outputLines.contains { $0.hasPrefix("opened usb:001,002 (mediashell Alpha") }, "\(open.outputLines)")
        let wrong = try ShellBinary.run(["--release", "sim:"], directory: home.path, environment: environment)
        #expect(wrong.status == 1 && wrong.errorLines.count == 1, "\(wrong.standardError)")
        #expect(wrong.standardError.contains("--release takes a usb: camera"), "\(wrong.standardError)")
    }
}
