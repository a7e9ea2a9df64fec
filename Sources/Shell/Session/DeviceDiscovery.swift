/// A camera attached to this computer, as `devices` lists it.
public struct DeviceListing: Sendable, Equatable {
    /// The URL that opens it, e.g. `usb:001,004`.
    public let url: String
    /// What it is, e.g. `Canon EOS R6 (serial 0123)`.
    public let description: String

    public init(url: String, description: String) {
        self.url = url
        self.description = description
    }
}

/// Finding cameras to open. The USB transport is being written: until it offers a listing, there are
/// no USB cameras to list, and opening `usb:` says why (the shell then falls back to `sim:`).
public enum DeviceDiscovery {
    /// The USB cameras attached; the place where the PTPUSB device listing plugs in.
    public static func usbCameras() -> [DeviceListing] { [] }
}
