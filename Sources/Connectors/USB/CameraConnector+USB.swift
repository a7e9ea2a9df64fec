import MediaManager
import PTP
import PTPUSB

extension CameraConnector {
    /// The PTP/MTP cameras attached over USB, for `devices`: bus, address, ids, names and the URL that
    /// opens each. Empty on a machine without USB.
    public static func usbCameras(options: Options = Options()) -> [USBCameraDescription] {
        options.usbBus.cameras()
    }

    /// Opens the camera `selector` names. When it matches several (a bare `usb:`, a model name two
    /// cameras share), the first is opened and `onUSBChoice` hears which, or, when the options ask for
    /// exactly one, nothing is opened and the error lists them.
    static func openUSB(_ selector: USBCameraSelector, options: Options) throws -> Camera {
        let attached = options.usbBus.cameras()
        let matching = attached.filter(selector.matches)
        guard let chosen = matching.first else {
            throw CameraOpenError.usb(.notFound(selector, available: attached))
        }
        if matching.count > 1, !options.opensFirstOfSeveral {
            throw CameraOpenError.usb(.ambiguous(selector, matching: matching))
        }
        let camera = try options.usbBus.open(chosen, options: options)
        if matching.count > 1 {
            options.onUSBChoice?(USBCameraChoice(selector: selector, opened: chosen, others: Array(matching.dropFirst())))
        }
        return camera
    }

    /// A USB transport made ready for a session: with `--debug-ptp`, the steps it takes to recover a device
    /// another program left mid-transaction go into the trace as notes (`# usb: Cancel ...`), among the
    /// containers they explain.
    static func sessionTransport(_ transport: USBTransport, options: Options) -> InitiatorTransport {
        if let trace = options.trace { transport.setLog { trace.note($0) } }
        return options.traced(transport)
    }
}

/// Which camera a `usb:` URL that matched several opened, and the ones it did not: the facts, which the
/// shell puts into words (with the command that opens each other one).
public struct USBCameraChoice: Sendable, Equatable {
    public let selector: USBCameraSelector
    public let opened: USBCameraDescription
    public let others: [USBCameraDescription]

    /// How many cameras the URL matched.
    public var matched: Int { 1 + others.count }

    /// What the URL named (`serial=B2`), nil for a bare `usb:` (every attached camera).
    public var selectorText: String? { selector == .first ? nil : "\(selector)" }

    /// The opened camera: `usb:001,002 mediashell Alpha One (serial A1)`.
    public var openedCamera: String { opened.shortDescription }

    /// Each camera not opened: the URL that names it alone among those matched, and what it is.
    public var alternatives: [(url: String, camera: String)] {
        let all = [opened] + others
        return others.map { ($0.namingURL(among: all), $0.shortDescription) }
    }
}
