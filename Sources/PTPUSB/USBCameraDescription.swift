import Foundation
import PTP

/// An attached USB device that speaks PTP or MTP, as `devices` lists it.
public struct USBCameraDescription: Equatable, Sendable, CustomStringConvertible {
    /// How the device said it speaks PTP.
    public enum Announcement: String, Equatable, Sendable {
        /// A still-image class interface (class 6, subclass 1, protocol 1): cameras, most phones.
        case stillImageClass = "still image"
        /// A vendor-specific interface whose name contains "MTP" (many phones and players).
        case mtpInterfaceName = "MTP (interface name)"
        /// A vendor-specific interface, and the Microsoft OS descriptor says the device is MTP.
        case microsoftOSDescriptor = "MTP (Microsoft OS descriptor)"
    }

    public var bus: Int
    public var address: Int
    public var vendorID: UInt16
    public var productID: UInt16
    /// From the device's string descriptors; empty when it has none or it could not be opened.
    public var manufacturer: String
    public var model: String
    public var serialNumber: String
    /// The interface that carries PTP, and how the device announced it.
    public var interfaceNumber: Int
    public var announcement: Announcement
    /// Why the device could not be opened to read its names (e.g. no permission), when that happened.
    public var problem: String?
    /// The speed it runs at and the best it can do; nil when the system does not say.
    public var link: USBLink?

    public init(
        bus: Int, address: Int, vendorID: UInt16, productID: UInt16, manufacturer: String = "", model: String = "",
        serialNumber: String = "", interfaceNumber: Int = 0, announcement: Announcement = .stillImageClass,
        problem: String? = nil, link: USBLink? = nil
    ) {
        self.bus = bus
        self.address = address
        self.vendorID = vendorID
        self.productID = productID
        self.manufacturer = manufacturer
        self.model = model
        self.serialNumber = serialNumber
        self.interfaceNumber = interfaceNumber
        self.announcement = announcement
        self.problem = problem
        self.link = link
    }

    /// The camera URL that opens exactly this device: `usb:001,004`.
    public var url: String { "usb:\(pad(bus, 3)),\(pad(address, 3))" }
    /// `04a9:32b4`, as lsusb writes it.
    public var usbID: String { "\(hex(vendorID)):\(hex(productID))" }
    /// "Canon Inc. EOS R6", or the USB id when the device gave no names.
    public var displayName: String {
        let name = [manufacturer, model].filter { !$0.isEmpty }.joined(separator: " ")
        return name.isEmpty ? "USB device \(usbID)" : name
    }

    public var description: String {
        var text = "\(url)  \(usbID)  \(displayName)"
        if !serialNumber.isEmpty { text += "  serial \(serialNumber)" }
        if let problem { text += "  (\(problem))" }
        return text
    }

    /// "usb:001,004 Canon Inc. EOS R6 (serial 0123)": one camera in a list inside a sentence.
    public var shortDescription: String {
        "\(url) \(displayName)" + (serialNumber.isEmpty ? "" : " (serial \(serialNumber))")
    }

    /// The shortest URL that names exactly this camera among `attached` and stays true when it is
    /// plugged into another port: `usb:serial=...` when its serial number is plain and its own, else its address.
    public func namingURL(among attached: [USBCameraDescription]) -> String {
        let plain = !serialNumber.isEmpty && serialNumber.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
        let own = attached.filter { $0.serialNumber == serialNumber }.count == 1
        return plain && own ? "usb:serial=\(serialNumber)" : url
    }
}

/// Which device `usb:` URLs pick.
public enum USBCameraSelector: Equatable, Sendable, CustomStringConvertible {
    /// Any PTP/MTP device (`usb:`): the first when there is just one.
    case first
    /// `usb:BUS,ADDR`.
    case address(bus: Int, address: Int)
    /// `usb:VVVV:PPPP`: the devices with these ids.
    case id(vendor: UInt16, product: UInt16)
    /// `usb:serial=SERIAL`: the device whose serial number is exactly this.
    case serial(String)
    /// `usb:model=NAME`: the devices whose maker and model name contains this, in any case.
    case model(String)

    public func matches(_ camera: USBCameraDescription) -> Bool {
        switch self {
        case .first: true
        case .address(let bus, let address): camera.bus == bus && camera.address == address
        case .id(let vendor, let product): camera.vendorID == vendor && camera.productID == product
        case .serial(let serial): !serial.isEmpty && camera.serialNumber == serial
        case .model(let name):
            !name.isEmpty && "\(camera.manufacturer) \(camera.model)".localizedCaseInsensitiveContains(name)
        }
    }

    public var description: String {
        switch self {
        case .first: "usb:"
        case .address(let bus, let address): "usb:\(pad(bus, 3)),\(pad(address, 3))"
        case .id(let vendor, let product): "usb:\(hex(vendor)):\(hex(product))"
        case .serial(let serial): "usb:serial=\(serial)"
        case .model(let name): "usb:model=\(name)"
        }
    }
}

func pad(_ value: Int, _ width: Int) -> String {
    let digits = String(value)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
}

func hex(_ value: UInt16) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
}
