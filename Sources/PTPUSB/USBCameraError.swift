import Failures
import POSIX

/// Why a USB camera could not be opened, with what to do about it.
public enum USBCameraError: Error, Equatable, Sendable, CustomStringConvertible {
    /// libusb could not start: this machine has no USB bus that a program can reach.
    case noUSB
    /// No attached PTP/MTP device matches; `available` lists those that are attached.
    case notFound(USBCameraSelector, available: [USBCameraDescription])
    /// More than one attached device matches, and the caller asked for exactly one (a script).
    case ambiguous(USBCameraSelector, matching: [USBCameraDescription])
    /// The device has no PTP interface with a bulk-in and bulk-out endpoint.
    case notACamera(USBCameraDescription)
    /// libusb_open failed (no permission, gone, ...); when it was no permission, `access` says what stands
    /// in the way (mediashell's udev rule, the group).
    case cannotOpen(USBCameraDescription, LibUSBError, access: USBAccess? = nil)
    /// libusb_claim_interface failed: usually another program holds the camera; when it was busy,
    /// `holders` says who (the processes with its device node open, a kernel driver on the interface).
    case cannotClaim(USBCameraDescription, LibUSBError, holders: USBHolders? = nil)

    /// The libusb code behind the failure, for logs.
    public var libUSBCode: LibUSBError? {
        switch self {
        case .cannotOpen(_, let code, _), .cannotClaim(_, let code, _): code
        default: nil
        }
    }

    public var description: String {
        switch self {
        case .noUSB:
            return "no USB cameras: libusb cannot reach a USB bus on this machine"
        case .notFound(let selector, let available):
            if available.isEmpty {
                return "no PTP/MTP camera is attached over USB (is it switched on, and in PTP, MTP or 'PC connection' mode?)"
            }
            let list = available.map { "\($0.url) \($0.usbID) \($0.displayName)" }.joined(separator: "; ")
            return "no USB camera matches \(selector); attached: \(list)"
        case .ambiguous(let selector, let matching):
            let list = matching.map(\.shortDescription).joined(separator: "; ")
            let example = matching.first.map { $0.namingURL(among: matching) } ?? "usb:BUS,ADDR"
            let which = selector == .first ? "are attached" : "match \(selector)"
            return "\(matching.count) USB cameras \(which): \(list); name the one to open "
                + "with usb:serial=SERIAL, usb:model=NAME or usb:BUS,ADDR (as in \(example))"
        case .notACamera(let camera):
            return "\(camera.url) (\(camera.displayName)) has no PTP interface with bulk endpoints"
        case .cannotOpen(let camera, let code, let access):
            switch code {
            case .access:
                if let access {
                    return "no permission to open \(camera.url) (\(camera.displayName)): \(code.name). " + Self.wayIn(camera, access)
                }
                return """
                    no permission to open \(camera.url) (\(camera.displayName)): \(code.name). Run as root, or add a \
                    udev rule such as SUBSYSTEM=="usb", ATTR{idVendor}=="\(hex(camera.vendorID))", \
                    ATTR{idProduct}=="\(hex(camera.productID))", MODE="0660", GROUP="plugdev" and re-plug the camera
                    """
            case .noDevice:
                return "\(camera.url) (\(camera.displayName)) went away while it was being opened: \(code.name)"
            default:
                return "cannot open \(camera.url) (\(camera.displayName)): \(code)"
            }
        case .cannotClaim(let camera, let code, let holders):
            if code == .busy, let holders, let line = Self.held(camera, code, holders) { return line }
            if code == .busy {
                return """
                    \(camera.displayName) at \(camera.url) is in use by another program (\(code.name)): a desktop \
                    file manager or gvfs-gphoto2-volume-monitor / gvfsd-mtp usually holds cameras. Close it, or run \
                    `gio mount -u gphoto2://*` (or `gio mount -l` to see the mount), then try again
                    """
            }
            return "cannot claim the PTP interface of \(camera.url) (\(camera.displayName)): \(code)"
        }
    }
}

extension USBCameraError {
    /// One line naming who holds `camera` and the way out; nil when nothing was found to name.
    static func held(_ camera: USBCameraDescription, _ code: LibUSBError, _ holders: USBHolders) -> String? {
        let who = "\(camera.url) (\(camera.displayName))"
        if !holders.processes.isEmpty {
            let names = holders.processes.map { "\($0.name) (pid \($0.pid))" }
            let list = names.count == 1 ? names[0] : names.dropLast().joined(separator: ", ") + " and " + names[names.count - 1]
            let mounts = holders.gvfsMounts(fallbackSerial: camera.udevStyleSerial)
            let others = holders.processes.filter { $0.gvfsScheme == nil }.map { "\($0.name) (pid \($0.pid))" }
            var ways: [String] = []
            if !mounts.isEmpty {
                let unmount = mounts.map { "gio mount -u \($0)" }.joined(separator: "; ")
                ways.append("run '\(unmount)' or 'mediashell --release \(camera.url)'")
            }
            if !others.isEmpty {
                // Named once: after the list when it is all there is, again beside gvfs's way out when not.
                let whom = mounts.isEmpty ? (others.count == 1 ? "it" : "them") : others.joined(separator: " and ")
                ways.append("end \(whom) (mediashell never stops a program)")
            }
            return "\(who) is held by \(list): " + ways.joined(separator: ", and ") + ", then try again"
        }
        if let driver = holders.kernelDriver {
            return "\(who) is held by the kernel driver '\(driver)' on interface \(camera.interfaceNumber), which could "
                + "not be detached (\(code.name)); mediashell does not unbind drivers: switch the camera to PTP or MTP "
                + "mode, or unbind '\(driver)' as root"
        }
        if holders.unreadable > 0 {
            return "\(who) is in use by a program of another user (\(code.name); \(holders.unreadable) processes here are "
                + "not this user's to read; as root, mediashell names it)"
        }
        return nil
    }
}

extension USBCameraError {
    /// How this user gets to open `camera`, from what stands in the way.
    static func wayIn(_ camera: USBCameraDescription, _ access: USBAccess) -> String {
        let group = USBAccess.group
        guard let rule = access.installedRule else {
            return "No udev rule gives cameras to this user: install the mediashell package, or from its source "
                + "'sudo install -m 644 scripts/packaging/\(USBAccess.ruleName) /etc/udev/rules.d/ && sudo udevadm control "
                + "--reload', then re-plug the camera (docs/install.md)"
        }
        guard access.deviceTagged else {
            return "\(rule) is installed but udev has not applied it to this camera: run 'sudo udevadm control --reload' "
                + "and re-plug the camera"
        }
        switch access.inGroup {
        case nil:
            return "\(rule) gives it to the user at the seat and to the group \(group), which this machine lacks: "
                + "'sudo groupadd --system \(group) && sudo adduser $USER \(group)', re-plug the camera and log in again"
        case false?:
            return "\(rule) gives it to the user at the seat and to the group \(group); this login is neither: "
                + "'sudo adduser $USER \(group)', then log in again"
        case true?:
            return "\(rule) gives it to the group \(group), which this user is in, yet the device node is not open to "
                + "it: another rule may override it ('ls -l \(camera.deviceNode)')"
        }
    }
}

extension USBCameraError: CategorizedError {
    /// Not attached is `.notFound`, held by another program `.busy`, no PTP interface `.notSupported`.
    public var category: FailureCategory {
        switch self {
        case .noUSB, .notACamera: .notSupported
        case .notFound: .notFound
        case .ambiguous: .invalidRequest
        case .cannotOpen(_, let code, _): code == .access ? .localIO : code.category
        case .cannotClaim(_, let code, _): code == .busy ? .busy : code.category
        }
    }
}

extension LibUSBError: CategorizedError {
    public var category: FailureCategory {
        switch self {
        case .noDevice: .disconnected
        case .notFound: .notFound
        case .busy: .busy
        case .timeout: .timedOut
        case .notSupported: .notSupported
        case .access, .noMemory, .interrupted, .invalidParameter: .localIO
        default: .deviceFault
        }
    }
}
