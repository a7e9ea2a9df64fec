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
    /// libusb_open failed (no permission, gone, ...).
    case cannotOpen(USBCameraDescription, LibUSBError)
    /// libusb_claim_interface failed: usually another program holds the camera.
    case cannotClaim(USBCameraDescription, LibUSBError)

    /// The libusb code behind the failure, for logs.
    public var libUSBCode: LibUSBError? {
        switch self {
        case .cannotOpen(_, let code), .cannotClaim(_, let code): code
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
        case .cannotOpen(let camera, let code):
            switch code {
            case .access:
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
        case .cannotClaim(let camera, let code):
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

extension USBCameraError: CategorizedError {
    /// Not attached is `.notFound`, held by another program `.busy`, no PTP interface `.notSupported`.
    public var category: FailureCategory {
        switch self {
        case .noUSB, .notACamera: .notSupported
        case .notFound: .notFound
        case .ambiguous: .invalidRequest
        case .cannotOpen(_, let code): code == .access ? .localIO : code.category
        case .cannotClaim(_, let code): code == .busy ? .busy : code.category
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
