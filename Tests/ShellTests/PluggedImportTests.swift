import Foundation
import POSIX
import TestSupport
import Testing

@testable import Shell

/// A system laid out in a folder as Linux lays it out (`sys`, `dev/disk`, `proc/self/mountinfo`), with
/// devices the tests plug in, and stand-ins for udisksctl and notify-send that log what they were asked.
private final class FakeSystem {
    let folder: TemporaryFolder
    var root: String { folder.path }
    var tools: String { root + "/bin" }

    init() throws {
        folder = try TemporaryFolder("msh-plugged")
        for path in ["sys/bus/usb/devices", "sys/class/block", "dev/disk/by-uuid", "dev/disk/by-label", "proc/self", "bin"] {
            try FileManager.default.createDirectory(atPath: root + "/" + path, withIntermediateDirectories: true)
        }
        try write("proc/self/mountinfo", "22 1 8:1 / / rw,relatime - ext4 /dev/sda1 rw\n")
        // udisksctl: logs its arguments; `unmount` takes the card out of the mount table, as the real one does.
        try write("bin/udisksctl", """
            #!/bin/sh
            echo "$*" >> "\(root)/udisksctl.log"
            if [ "$1" = unmount ]; then grep -v ' 8:17 ' "\(root)/proc/self/mountinfo" > "\(root)/mi"; mv "\(root)/mi" "\(root)/proc/self/mountinfo"; fi
            """, executable: true)
        try write("bin/notify-send", "#!/bin/sh\nprintf '%s\\n' \"$@\" > \"\(root)/notified\"\n", executable: true)
    }

    func write(_ relative: String, _ text: String, executable: Bool = false) throws {
        let path = root + "/" + relative
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        if executable { try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path) }
    }

    func read(_ relative: String) -> String? { try? String(contentsOfFile: root + "/" + relative, encoding: .utf8) }

    /// A USB device at BUS-PORT, as sysfs shows it.
    func plugCamera(_ name: String, bus: Int, address: Int, serial: String?, product: String) throws {
        try write("sys/bus/usb/devices/\(name)/busnum", "\(bus)\n")
        try write("sys/bus/usb/devices/\(name)/devnum", "\(address)\n")
        try write("sys/bus/usb/devices/\(name)/product", product + "\n")
        if let serial { try write("sys/bus/usb/devices/\(name)/serial", serial + "\n") }
    }

    /// A card's partition `sdz1` (8:17) with a FAT UUID and a label; mounted at `card` when given (with the
    /// mount table's escapes), its card holding `files` under DCIM/100TEST.
    @discardableResult
    func plugCard(label: String = "CARD ONE", mounted: Bool = true, dcim: Bool = true, files: [String] = ["A.JPG", "B.JPG"]) throws -> String {
        try write("sys/class/block/sdz1/dev", "8:17\n")
        try write("sys/class/block/sdz1/size", "62333952\n")
        try FileManager.default.createSymbolicLink(atPath: root + "/dev/disk/by-uuid/1234-ABCD", withDestinationPath: "../../sdz1")
        try FileManager.default.createSymbolicLink(
            atPath: root + "/dev/disk/by-label/" + label.replacingOccurrences(of: " ", with: "\\x20"), withDestinationPath: "../../sdz1")
        let card = root + "/media/" + label
        for file in files { try write("media/\(label)/\(dcim ? "DCIM/100TEST/" : "")\(file)", "photo \(file) bytes") }
        if files.isEmpty { try FileManager.default.createDirectory(atPath: card, withIntermediateDirectories: true) }
        if mounted {
            let table = read("proc/self/mountinfo") ?? ""
            try write("proc/self/mountinfo", table + "99 22 8:17 / \(card.replacingOccurrences(of: " ", with: "\\040")) rw - vfat /dev/sdz1 rw\n")
        }
        return card
    }

    var system: PluggedDevice.System { PluggedDevice.System(environment: ["MEDIASHELL_SYSTEM_ROOT": root]) }

    /// `mediashell import ARGUMENTS` with this system, its tools first in PATH, a home of its own.
    func run(_ arguments: [String], automount: Double = 0) throws -> ShellBinary.Result {
        try ShellBinary.run(["-n", "import"] + arguments, directory: root, environment: [
            "MEDIASHELL_SYSTEM_ROOT": root, "MEDIASHELL_AUTOMOUNT_SECONDS": "\(automount)",
            "PATH": tools + ":/usr/bin:/bin", "HOME": root + "/home", "XDG_DATA_HOME": root + "/data",
            "XDG_CONFIG_HOME": root + "/config", "NO_COLOR": "1",
        ])
    }
}

@Suite struct PluggedDeviceTests {
    @Test func aUSBDeviceIsACameraAtItsBusAndAddress() throws {
        let system = try FakeSystem()
        try system.plugCamera("1-2", bus: 1, address: 7, serial: "3SF0042", product: "ILCE-7M4")
        let device = try PluggedDevice(name: "1-2", system: system.system)
        #expect(device.kind == .camera(bus: 1, address: 7, serial: "3SF0042"))
        #expect(device.title == "ILCE-7M4")
        #expect(device.matches(serial: "3sf0042"))
        #expect(!device.matches(serial: "3SF0043"))
    }

    @Test func aCardIsItsNodeNumberUUIDAndLabel() throws {
        let system = try FakeSystem()
        try system.plugCard(label: "EOS DIGITAL")
        let device = try PluggedDevice(name: "sdz1", system: system.system)
        #expect(device.kind == .card(node: system.root + "/dev/sdz1", number: "8:17", uuid: "1234-ABCD", label: "EOS DIGITAL"))
        #expect(device.title == "EOS DIGITAL")
        #expect(device.matches(serial: "1234-abcd") && device.matches(serial: "eos digital"))
        #expect(!device.matches(serial: "1234"))
    }

    @Test func namesThatAreNotKernelNamesAreRefusedBeforeAnyRead() throws {
        let system = try FakeSystem()
        for name in ["", "..", "../../etc", "1-2/../../x", "sd b", "sdb\n1", String(repeating: "a", count: 65)] {
            #expect(throws: PluggedError.badName(name)) { try PluggedDevice(name: name, system: system.system) }
        }
        #expect(throws: PluggedError.gone("1-9")) { try PluggedDevice(name: "1-9", system: system.system) }
    }

    @Test func aPartitionedDiskAndAnEmptyReaderAreLeftAlone() throws {
        let system = try FakeSystem()
        try system.write("sys/class/block/sdy/dev", "8:16\n")
        try system.write("sys/class/block/sdy/size", "62333952\n")
        try system.write("sys/class/block/sdy/sdy1/partition", "1\n")
        #expect(throws: PluggedError.leftAlone("sdy is partitioned: its partitions are imported as they appear")) {
            try PluggedDevice(name: "sdy", system: system.system)
        }
        try system.write("sys/class/block/sdx/dev", "8:32\n")
        try system.write("sys/class/block/sdx/size", "0\n")
        #expect(throws: PluggedError.leftAlone("sdx holds no medium")) { try PluggedDevice(name: "sdx", system: system.system) }
    }

    @Test func theMountTableGivesTheCardsFolderWithItsEscapesUndone() {
        let table = """
            22 1 8:1 / / rw - ext4 /dev/sda1 rw
            40 22 8:17 /DCIM /srv/bound rw - vfat /dev/sdz1 rw
            41 22 8:17 / /media/ann/EOS\\040DIGITAL\\134x rw - vfat /dev/sdz1 rw
            """
        // A bind mount of a folder inside the card is not the card's root.
        #expect(PluggedDevice.mountPoint(of: "8:17", table: table) == "/media/ann/EOS DIGITAL\\x")
        #expect(PluggedDevice.mountPoint(of: "8:33", table: table) == nil)
        #expect(PluggedDevice.unescapedLabel("EOS\\x20DIGITAL") == "EOS DIGITAL")
    }

    @Test func aCardNeverMountedIsGivenUpAtTheDeadline() throws {
        let system = try FakeSystem()
        let started = Date()
        #expect(PluggedDevice.waitForMount(of: "8:17", table: system.root + "/proc/self/mountinfo", until: .after(0.2)) == nil)
        #expect(Date().timeIntervalSince(started) < 10)
        let card = try system.plugCard()
        #expect(PluggedDevice.waitForMount(of: "8:17", table: system.root + "/proc/self/mountinfo", until: .after(5)) == card)
    }
}

@Suite struct PluggedServiceTests {
    @Test func execStartWordsAreQuotedAsSystemdReadsThem() {
        #expect(PluggedService.quoted("/home/ann/Pictures/%Y/%f") == "\"/home/ann/Pictures/%%Y/%%f\"")
        #expect(PluggedService.quoted("a \"b\" $HOME \\ c") == "\"a \\\"b\\\" $$HOME \\\\ c\"")
        let text = PluggedService.unitText(executable: "/usr/bin/mediashell", arguments: ["import", "--plugged", PluggedService.instance])
        #expect(text.contains("\nExecStart=\"/usr/bin/mediashell\" \"import\" \"--plugged\" %i\n"))
        #expect(text.contains("\nType=oneshot\n"))
    }

    @Test func namesInTheNotificationCannotBreakItsMarkup() {
        #expect(PluggedImport.markupEscaped("2 fetched from <A&B>\nnext\u{1B}[2J") == "2 fetched from &lt;A&amp;B&gt;\nnext\\x1b[2J")
    }

    @Test func theFolderIsTheUsersSystemdUnits() {
        #expect(PluggedService.folder(environment: ["HOME": "/home/ann"]) == "/home/ann/.config/systemd/user")
        #expect(PluggedService.folder(environment: ["HOME": "/home/ann", "XDG_CONFIG_HOME": "/cfg"]) == "/cfg/systemd/user")
        #expect(PluggedService.folder(environment: ["XDG_CONFIG_HOME": "relative"]) == nil)
    }

    @Test func thePackagesRuleStartsTheServiceForCamerasAndCards() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let rule = try String(contentsOf: root.appendingPathComponent("scripts/packaging/60-mediashell.rules"), encoding: .utf8)
        #expect(rule.contains("ENV{SYSTEMD_USER_WANTS}+=\"mediashell-plugged@%k.service\""))
        #expect(rule.contains(PluggedService.ruleMarker))
        // The camera's label falls through to the service's; a card never reaches the camera's permissions.
        let camera = try #require(rule.range(of: "LABEL=\"mediashell_camera\""))
        let card = try #require(rule.range(of: "LABEL=\"mediashell_card\""))
        #expect(camera.upperBound < card.lowerBound)
        #expect(!rule[camera.upperBound..<card.lowerBound].contains("GOTO"))
    }
}

@Suite(.enabled(if: ShellBinary.exists, "needs the built mediashell binary"), .tags(.process), .notInFastRun)
struct PluggedImportBinaryTests {
    @Test func aCardWithDCIMIsImportedEjectedAndTheDesktopToldTheCounts() throws {
        let system = try FakeSystem()
        let card = try system.plugCard()
        let run = try system.run(["--plugged", "sdz1", "--serial", "1234-abcd", "--eject", "--to", "pics/%f"])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.outputLines.first == "mediashell import: importing from CARD ONE (dir:\(card))")
        #expect(run.standardOutput.contains("import: 2 fetched, 0 skipped (already imported), 0 renamed, 0 failed"))
        // Relative to the folder it was given in, as the service makes every path absolute.
        #expect(try String(contentsOfFile: system.root + "/pics/A.JPG", encoding: .utf8) == "photo A.JPG bytes")
        #expect(system.read("udisksctl.log") == """
            unmount --no-user-interaction -b \(system.root)/dev/sdz1
            power-off --no-user-interaction -b \(system.root)/dev/sdz1

            """)
        let notified = try #require(system.read("notified")).split(separator: "\n").map(String.init)
        try #require(notified.count == 5, "\(notified)")
        #expect(notified[2] == "mediashell: imported from CARD ONE")
        #expect(notified[3].hasPrefix("2 fetched, 0 skipped (already imported), 0 renamed, 0 failed; "))
        #expect(!notified[3].contains("checksums in"))
        #expect(notified[4].hasSuffix("unmounted from \(card) and powered off: the card can be taken out"))

        // Plugged in again: nothing new, and the notification says so.
        try system.write("proc/self/mountinfo", (system.read("proc/self/mountinfo") ?? "")
            + "99 22 8:17 / \(card.replacingOccurrences(of: " ", with: "\\040")) rw - vfat /dev/sdz1 rw\n")
        let again = try system.run(["--plugged", "sdz1", "--to", "pics/%f"])
        #expect(again.status == 0, "\(again.standardError)")
        #expect(system.read("notified")?.contains("0 fetched, 2 skipped (already imported)") == true)
    }

    @Test func anotherCardACardWithoutDCIMAndAStrangerAreLeftAlone() throws {
        let system = try FakeSystem()
        try system.plugCard(dcim: false)
        let other = try system.run(["--plugged", "sdz1", "--serial", "9999-0000", "--to", "pics/%f"])
        #expect(other.status == 0)
        #expect(other.outputLines == ["mediashell import: CARD ONE (sdz1) is not the device --serial 9999-0000 names: left alone"])
        let noDCIM = try system.run(["--plugged", "sdz1", "--to", "pics/%f"])
        #expect(noDCIM.status == 0)
        #expect(noDCIM.outputLines == ["mediashell import: \(system.root)/media/CARD ONE has no DCIM folder: not a camera's card, left alone"])
        #expect(!FileManager.default.fileExists(atPath: system.root + "/pics"))
        #expect(system.read("notified") == nil)
        let stranger = try system.run(["--plugged", "../../etc/passwd"])
        #expect(stranger.status == 1)
        #expect(stranger.outputLines == ["mediashell import: '../../etc/passwd' is not a device name udev gives (1-2, sdb1)"])
    }

    @Test func aCardNobodyMountsIsAFailureTheDesktopHears() throws {
        let system = try FakeSystem()
        try system.plugCard(mounted: false)
        try FileManager.default.removeItem(atPath: system.tools + "/udisksctl")
        let run = try system.run(["--plugged", "sdz1", "--to", "pics/%f"])
        #expect(run.status == 1)
        #expect(run.standardOutput.contains(
            "/dev/sdz1 was not mounted within 0 s and there is no udisksctl to mount it (Debian package udisks2)"))
        #expect(system.read("notified")?.contains("mediashell could not import CARD ONE") == true)
    }

    @Test func aCameraThatCannotBeOpenedIsAFailureTheDesktopHears() throws {
        let system = try FakeSystem()
        try system.plugCamera("9-9", bus: 250, address: 99, serial: "X1", product: "Gone Camera")
        let run = try system.run(["--plugged", "9-9", "--eject", "--to", "pics/%f"])
        #expect(run.status == 1)
        #expect(run.outputLines.first == "mediashell import: importing from Gone Camera (usb:250,099)")
        #expect(run.standardOutput.contains("not ejected: the import did not succeed (exit status 1)"))
        let notified = try #require(system.read("notified"))
        #expect(notified.contains("mediashell: the import from Gone Camera failed\nmediashell: cannot open usb:250,099: "))
        #expect(notified.contains("journalctl --user -u 'mediashell-plugged@*'"))
        #expect(!FileManager.default.fileExists(atPath: system.root + "/pics"))
    }

    @Test func whenPluggedInstallsTheUnitWithAbsolutePathsAndStopRemovesIt() throws {
        let system = try FakeSystem()
        let unit = system.root + "/config/systemd/user/mediashell-plugged@.service"
        let dry = try system.run(["--when-plugged", "--dry-run", "--to", "pics/%Y/%f", "--mhl", "--eject"])
        #expect(dry.status == 0, "\(dry.standardError)")
        #expect(dry.outputLines.first == "would write \(unit):")
        #expect(!FileManager.default.fileExists(atPath: unit))

        let install = try system.run(["--when-plugged", "--serial", "3SF0042", "--to", "pics/%Y/%f", "--mhl"])
        // Exit 1 here: this machine's udev has no rule that starts the service (the test checks what it says).
        #expect(install.outputLines.first == "installed \(unit)")
        let text = try String(contentsOfFile: unit, encoding: .utf8)
        #expect(text.contains("\"import\" \"--plugged\" %i \"--serial\" \"3SF0042\" \"--to\" \"\(system.root)/pics/%%Y/%%f\" \"--mhl\"\n"))
        #expect(text.contains("ExecStart=\"\(try ShellBinary.resolvedPath)\" \"-n\" \"import\""))
        if PluggedService.installedRule() == nil {
            #expect(install.status == 1)
            #expect(install.standardOutput.contains("the udev rule that starts the service is not installed"))
        }

        let stop = try system.run(["--stop-when-plugged"])
        #expect(stop.status == 0)
        #expect(stop.outputLines.first == "removed \(unit)")
        #expect(!FileManager.default.fileExists(atPath: unit))
    }

    @Test func optionsOfTheServiceAloneAreRefusedElsewhere() throws {
        let system = try FakeSystem()
        let eject = try system.run(["--eject", "--camera", "sim:"])
        #expect(eject.status == 2)
        #expect(eject.errorLines == ["mediashell import: --eject goes with --when-plugged (try 'mediashell import --help')"])
        let both = try system.run(["--when-plugged", "--plugged", "1-2"])
        #expect(both.status == 2)
        #expect(both.errorLines == ["mediashell import: --when-plugged and --plugged cannot go together (try 'mediashell import --help')"])
    }

    @Test func importFromTheCommandLineIsTheShellsImport() throws {
        let system = try FakeSystem()
        let run = try system.run(["--camera", "sim:", "--kind", "photo", "--to", "out/%f"])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.outputLines.count == 1)
        #expect(run.outputLines.first?.hasPrefix("import: 3 fetched, 0 skipped (already imported), 0 renamed, 0 failed;") == true)
        // Its errors name the program, not a script line the user never wrote.
        let refused = try system.run(["--camera", "sim:", "--to", "/proc/mediashell-nowhere/%f"])
        #expect(refused.status == 1)
        #expect(refused.errorLines.first?.hasPrefix("mediashell import: error: import: ") == true, "\(refused.errorLines)")
    }
}

extension ShellBinary {
    /// The binary's own path with links resolved: what a service it installs names.
    static var resolvedPath: String {
        get throws { URL(fileURLWithPath: path).resolvingSymlinksInPath().path }
    }
}
