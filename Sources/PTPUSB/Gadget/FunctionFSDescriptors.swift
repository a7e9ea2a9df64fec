/// What a FunctionFS function writes to its `ep0` before it has endpoints (the kernel's
/// `include/uapi/linux/usb/functionfs.h`), and the events it reads from it after: here, one interface of the
/// USB still image class (PIMA 15740: class 6, subclass 1, protocol 1) with a bulk-in, a bulk-out and an
/// interrupt-in endpoint, which FunctionFS opens as `ep1`, `ep2` and `ep3` in that order.
public enum FunctionFSDescriptors {
    /// The interface descriptors for full and high speed, in the v2 layout: magic 3, length, flags (full and
    /// high speed given), the count of each speed's descriptors, then the descriptors.
    public static func stillImageInterface() -> [UInt8] {
        var body: [UInt8] = []
        for speed in [Speed.full, .high] { body += interface(at: speed) }
        var out: [UInt8] = []
        let headerLength = 3 * 4 + 2 * 4
        append32(&out, 3)  // FUNCTIONFS_DESCRIPTORS_MAGIC_V2
        append32(&out, UInt32(headerLength + body.count))
        append32(&out, 1 | 2)  // FUNCTIONFS_HAS_FS_DESC | FUNCTIONFS_HAS_HS_DESC
        append32(&out, 4)  // full speed: the interface and its three endpoints
        append32(&out, 4)  // high speed: the same
        return out + body
    }

    /// The function's strings, in US English: the interface's name (string 1).
    public static func strings(interfaceName: String) -> [UInt8] {
        let text = Array(interfaceName.utf8.filter { $0 != 0 }) + [0]
        var out: [UInt8] = []
        append32(&out, 2)  // FUNCTIONFS_STRINGS_MAGIC
        append32(&out, UInt32(4 * 4 + 2 + text.count))
        append32(&out, 1)  // strings per language
        append32(&out, 1)  // languages
        out += [0x09, 0x04]  // en-US
        return out + text
    }

    enum Speed {
        case full, high
        /// Bulk endpoints' largest packet: 64 bytes at full speed, 512 at high speed.
        var bulkPacket: UInt16 { self == .full ? 64 : 512 }
        /// The interrupt endpoint's polling interval: 10 frames of 1 ms at full speed; 2^(8-1) microframes of
        /// 125 µs (16 ms) at high speed.
        var interruptInterval: UInt8 { self == .full ? 10 : 8 }
    }

    static func interface(at speed: Speed) -> [UInt8] {
        // bLength 9, INTERFACE, number 0, alternate 0, three endpoints, class 6/1/1, string 1.
        var out: [UInt8] = [9, 4, 0, 0, 3, 6, 1, 1, 1]
        out += endpoint(address: 0x81, attributes: 2, packet: speed.bulkPacket, interval: 0)
        out += endpoint(address: 0x02, attributes: 2, packet: speed.bulkPacket, interval: 0)
        out += endpoint(address: 0x83, attributes: 3, packet: 64, interval: speed.interruptInterval)
        return out
    }

    static func endpoint(address: UInt8, attributes: UInt8, packet: UInt16, interval: UInt8) -> [UInt8] {
        [7, 5, address, attributes, UInt8(packet & 0xFF), UInt8(packet >> 8), interval]
    }

    static func append32(_ out: inout [UInt8], _ value: UInt32) {
        out += [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)]
    }
}

/// One event FunctionFS reports on `ep0` (`struct usb_functionfs_event`, 12 bytes): the host configured or
/// left the function, or sent a control request for it.
public enum FunctionFSEvent: Equatable, Sendable {
    public static let size = 12

    case bind, unbind
    /// The host chose a configuration with the function: its endpoints work.
    case enable
    /// The host left the configuration (or the cable went): the endpoints' transfers end.
    case disable
    case setup(ControlRequest)
    case suspend, resume
    case unknown(UInt8)

    /// A control request (`struct usb_ctrlrequest`).
    public struct ControlRequest: Equatable, Sendable {
        public var requestType: UInt8
        public var request: UInt8
        public var value: UInt16
        public var index: UInt16
        public var length: UInt16
        /// The data stage goes to the host (a read the function answers with a write on `ep0`).
        public var isDeviceToHost: Bool { requestType & 0x80 != 0 }
        /// A request of the device's class (here the still image class's: Cancel 0x64, Get Extended Event
        /// Data 0x65, Device Reset 0x66, Get Device Status 0x67).
        public var isClassRequest: Bool { requestType & 0x60 == 0x20 }
    }

    /// The events in `bytes` (whole ones; a trailing part is ignored).
    public static func decode(_ bytes: [UInt8]) -> [FunctionFSEvent] {
        stride(from: 0, to: bytes.count - bytes.count % size, by: size).map { at in
            func u16(_ i: Int) -> UInt16 { UInt16(bytes[at + i]) | UInt16(bytes[at + i + 1]) << 8 }
            switch bytes[at + 8] {
            case 0: return .bind
            case 1: return .unbind
            case 2: return .enable
            case 3: return .disable
            case 4:
                return .setup(ControlRequest(requestType: bytes[at], request: bytes[at + 1], value: u16(2), index: u16(4), length: u16(6)))
            case 5: return .suspend
            case 6: return .resume
            case let other: return .unknown(other)
            }
        }
    }
}
