import Foundation
import TestSupport
import Testing

/// The USB link's speed (issue 29), with virtual cameras presented as attached on a given link
/// (`MEDIASHELL_DEMO_USB_CAMERAS=MODEL/SERIAL@SPEED<CAPABLE`): `devices` and `summary` say it, and a camera
/// its port holds back is warned about once, when it opens.
@Suite(.enabled(if: ShellBinary.exists, "needs the built mediashell binary"), .tags(.process), .notInFastRun)
struct USBLinkSpeedTests {
    let home: TemporaryFolder

    init() throws { home = try TemporaryFolder("msh-usblink") }

    private func run(_ arguments: [String], cameras: String) throws -> ShellBinary.Result {
        let result = try ShellBinary.run(
            arguments, directory: home.path,
            environment: [
                "HOME": home.path, "XDG_DATA_HOME": home.path + "/data", "MEDIASHELL_DEMO_USB_CAMERAS": cameras,
                "MEDIASHELL_DISCOVERY_TARGETS": "off",  // USB only: no Wi-Fi line
            ])
        #expect(!result.timedOut, "the shell did not finish")
        return result
    }

    @Test func aSuperSpeedCameraOnAUSB2PortIsWarnedAboutOnce() throws {
        let result = try run(["--camera", "usb:", "-c", "summary; ls; summary"], cameras: "Fast/F1@high<super")
        #expect(result.status == 0, "\(result.standardError)")
        let warnings = result.errorLines.filter { $0.contains("runs at") }
        #expect(warnings == [
            "warning: usb:001,002 runs at high speed (480 Mb/s) though the camera can do SuperSpeed (5 Gb/s): a USB 2 port, "
                + "hub or cable is in the way, and transfers may take up to 10 times as long (plug it into a faster port)"
        ], "\(result.errorLines)")
        let links = result.outputLines.filter { $0.hasPrefix("usb link:") }
        #expect(links.count == 2, "\(result.outputLines)")
        #expect(links.first?.hasSuffix("high speed (480 Mb/s); the camera can do SuperSpeed (5 Gb/s)") == true, "\(links)")
    }

    @Test func aHighSpeedCameraOnAFullSpeedPortIsWarnedAbout() throws {
        let result = try run(["-c", "summary"], cameras: "Old/O1@full<high")
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.errorLines.filter { $0.contains("a USB 1.1 port or hub is in the way") && $0.contains("40 times") }.count == 1,
            "\(result.errorLines)")
    }

    @Test func aCameraAtItsOwnSpeedIsNotWarnedAbout() throws {
        let result = try run(["-c", "summary"], cameras: "Plain/P1@high")
        #expect(result.status == 0, "\(result.standardError)")
        #expect(!result.standardError.contains("runs at"), "\(result.standardError)")
        #expect(result.outputLines.contains { $0.hasPrefix("usb link:") && $0.hasSuffix("high speed (480 Mb/s)") }, "\(result.outputLines)")
    }

    @Test func devicesShowsEachCamerasSpeed() throws {
        let result = try run(["devices"], cameras: "Fast/F1@high<super;Plain/P1@super")
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.outputLines.count == 2, "\(result.outputLines)")
        #expect(result.outputLines.first?.hasSuffix("high speed (480 Mb/s); the camera can do SuperSpeed (5 Gb/s)") == true, "\(result.outputLines)")
        #expect(result.outputLines.last?.hasSuffix("SuperSpeed (5 Gb/s)") == true, "\(result.outputLines)")
    }
}
