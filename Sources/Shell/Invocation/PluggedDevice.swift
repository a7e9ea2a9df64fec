import Foundation
import POSIX
import TerminalKit

/// A device udev announced, by the kernel name its rule hands the service (`%k`: `1-2` for a USB device,
/// `sdb1` for a card's partition), read from sysfs: a USB camera, a card's filesystem, or something the
/// service leaves alone. The name comes from udev through systemd, but it is checked as any input is.
struct PluggedDevice: Equatable {
    enum Kind: Equatable {
        /// A USB device: opened as `usb:BUS,ADDR`; `serial` is its USB serial number (`devices` shows it).
        case camera(bus: Int, address: Int, serial: String)
        /// A block device with a filesystem: `node` is /dev/NAME, `number` its `MAJOR:MINOR`; the card's
        /// filesystem UUID (a FAT card's volume serial) and label, from /dev/disk, when udev made those links.
        case card(node: String, number: String, uuid: String?, label: String?)
    }

    let name: String
    let kind: Kind
    /// What the device calls itself (its USB product, or its filesystem's label), for the log and the
    /// notification.
    let title: String

    /// Where the facts are read: the real system, or a folder laid out as it is, for tests.
    struct System {
        var sysfs = "/sys"
        var devices = "/dev"
        var mountTable = "/proc/self/mountinfo"

        /// The system's own, or, where `MEDIASHELL_SYSTEM_ROOT` names a folder, that folder's `sys`, `dev`
        /// and `proc/self/mountinfo` (how the tests plug in devices of their making).
        init(environment: [String: String] = [:]) {
            guard let root = environment["MEDIASHELL_SYSTEM_ROOT"], root.hasPrefix("/") else { return }
            sysfs = root + "/sys"
            devices = root + "/dev"
            mountTable = root + "/proc/self/mountinfo"
        }
    }

    /// The device named `name` as the system describes it now; an error naming what is wrong otherwise.
    init(name: String, system: System = System()) throws(PluggedError) {
        guard Self.isKernelName(name) else { throw .badName(name) }
        self.name = name
        let usb = "\(system.sysfs)/bus/usb/devices/\(name)"
        if let bus = Self.number(at: usb + "/busnum"), let address = Self.number(at: usb + "/devnum") {
            let serial = Self.attribute(at: usb + "/serial") ?? ""
            kind = .camera(bus: bus, address: address, serial: serial)
            let product = [Self.attribute(at: usb + "/manufacturer"), Self.attribute(at: usb + "/product")]
                .compactMap { $0 }.joined(separator: " ")
            title = product.isEmpty ? "the USB device \(name)" : product
            return
        }
        let block = "\(system.sysfs)/class/block/\(name)"
        if let number = Self.attribute(at: block + "/dev"), number.split(separator: ":").count == 2 {
            // A reader with no card in it; a whole disk whose partitions come as devices of their own.
            if Self.attribute(at: block + "/size") == "0" { throw .leftAlone("\(name) holds no medium") }
            if (LocalDisk.names(in: block) ?? []).contains(where: { $0.hasPrefix(name) && $0 != name }) {
                throw .leftAlone("\(name) is partitioned: its partitions are imported as they appear")
            }
            let uuid = Self.link(to: name, in: "\(system.devices)/disk/by-uuid")
            let label = Self.link(to: name, in: "\(system.devices)/disk/by-label").map(Self.unescapedLabel)
            kind = .card(node: "\(system.devices)/\(name)", number: number, uuid: uuid, label: label)
            title = label ?? name
            return
        }
        throw .gone(name)
    }

    /// True when `serial` names this device: a camera's USB serial number, a card's filesystem UUID (a
    /// FAT card's volume serial, `1234-ABCD`) or its label; letters in any case.
    func matches(serial: String) -> Bool {
        let wanted = serial.uppercased()
        switch kind {
        case .camera(_, _, let own): return own.uppercased() == wanted
        case .card(_, _, let uuid, let label): return [uuid, label].contains { $0?.uppercased() == wanted }
        }
    }

    /// A kernel device name: letters, digits and `-._:` (USB paths `1-2.3`, interfaces `1-2:1.0`,
    /// partitions `sdb1`, `mmcblk0p1`), never a path.
    static func isKernelName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 64 && name != "." && name != ".."
            && name.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                    || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
                    || byte == UInt8(ascii: ":")
            }
    }

    /// The folder where the card with device number `number` is mounted, nil when it is not (the first
    /// mount of it in the table).
    static func mountPoint(of number: String, table: String) -> String? {
        for line in table.split(separator: "\n") {
            // ID PARENT MAJOR:MINOR ROOT MOUNTPOINT OPTIONS ... (proc(5)); the root must be the filesystem's.
            let fields = line.split(separator: " ", omittingEmptySubsequences: false)
            guard fields.count > 4, fields[2] == number, fields[3] == "/" else { continue }
            return unescapedMountField(String(fields[4]))
        }
        return nil
    }

    /// The mount table's `\040`-style octal escapes (space, tab, newline, backslash) turned back into bytes.
    static func unescapedMountField(_ text: String) -> String { unescaped(text, marker: "", digits: 3, radix: 8) }

    /// udev's `\x20`-style escapes in a /dev/disk/by-label name turned back into the label.
    static func unescapedLabel(_ text: String) -> String { unescaped(text, marker: "x", digits: 2, radix: 16) }

    /// `text` with each backslash, `marker` and `digits` digits in `radix` replaced by that byte; anything
    /// else (a backslash not followed so) as it is.
    private static func unescaped(_ text: String, marker: String, digits: Int, radix: Int) -> String {
        let source = Array(text.utf8)
        let prefix = [UInt8(ascii: "\\")] + Array(marker.utf8)
        let length = prefix.count + digits
        var bytes: [UInt8] = []
        var index = 0
        while index < source.count {
            if index + length <= source.count, Array(source[index..<(index + prefix.count)]) == prefix,
                let value = UInt8(String(decoding: source[(index + prefix.count)..<(index + length)], as: UTF8.self), radix: radix)
            {
                bytes.append(value)
                index += length
            } else {
                bytes.append(source[index])
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func attribute(at path: String) -> String? {
        guard let text = try? PrivateFile.text(at: path, limit: 4096) else { return nil }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }

    private static func number(at path: String) -> Int? { attribute(at: path).flatMap { Int($0) } }

    /// The name in `folder` whose symbolic link points at the device `name` (`../../sdb1`).
    private static func link(to name: String, in folder: String) -> String? {
        for entry in (LocalDisk.names(in: folder) ?? []).sorted() {
            var buffer = [CChar](repeating: 0, count: 4096)
            let count = readlink("\(folder)/\(entry)", &buffer, buffer.count - 1)
            guard count > 0 else { continue }
            let target = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if target.split(separator: "/").last.map(String.init) == name { return entry }
        }
        return nil
    }
}

/// Why a plugged device was not imported.
enum PluggedError: Error, Equatable, CustomStringConvertible {
    case badName(String)
    case gone(String)
    case notMounted(String, seconds: Int, mounter: String?)
    /// Not a camera or a card's filesystem: nothing to do, and nothing wrong.
    case leftAlone(String)

    var description: String {
        switch self {
        case .badName(let name): "'\(SafeText.display(name))' is not a device name udev gives (1-2, sdb1)"
        case .gone(let name): "\(name) is neither a USB device nor a disk now (unplugged again?)"
        case .leftAlone(let reason): reason + ": left alone"
        case .notMounted(let name, let seconds, let mounter):
            "/dev/\(name) was not mounted within \(seconds) s"
                + (mounter.map { " (\($0))" } ?? " and there is no udisksctl to mount it (Debian package udisks2)")
        }
    }
}

extension PluggedDevice {
    /// Waits until the card with device number `number` is mounted (a desktop's automounter, udisks),
    /// woken by each change of the mount table (proc(5): it reports a priority event), and returns where;
    /// nil when `deadline` passes first.
    static func waitForMount(of number: String, table path: String, until deadline: Deadline) -> String? {
        // Opened before the first read: a mount between the read and the wait still wakes the wait.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        defer { if descriptor >= 0 { close(descriptor) } }
        while true {
            if let text = try? PrivateFile.text(at: path), let point = mountPoint(of: number, table: text) { return point }
            guard descriptor >= 0, !deadline.hasPassed else { return nil }
            let changed = PollEvents(rawValue: Int16(POLLPRI))
            guard let seen = try? pollDescriptors([descriptor], events: changed, deadline: deadline),
                seen.first.map({ !$0.isEmpty }) == true
            else { return nil }
        }
    }
}
