import Failures

/// Where a camera is, as the user writes it: `usb:`, `usb:BUS,ADDR`, `usb:VVVV:PPPP`, `usb:serial=SERIAL`,
/// `usb:model=NAME`, `ptpip:HOST[:PORT[:EVENTPORT]]`, `fuji:HOST[:PORT[:EVENTPORT]]`, `dir:PATH`, `sim:` or
/// `sim:PATH`.
public enum CameraURL: Equatable, Sendable, CustomStringConvertible {
    case usbFirst
    case usbAddress(bus: Int, address: Int)
    case usbID(vendor: UInt16, product: UInt16)
    /// The USB camera whose serial number is exactly this.
    case usbSerial(String)
    /// The USB camera whose maker and model name ("Canon Inc. EOS R6") contains this, in any case.
    case usbModel(String)
    case ptpip(host: String, port: UInt16, eventPort: UInt16)
    /// A Fujifilm X body in its Wi-Fi mode: Fuji's own framing on port 55740, events on 55741, live view on
    /// 55742 (`liveViewPort` nil: the port after the event port, as libgphoto2 takes it).
    case fuji(host: String, port: UInt16, eventPort: UInt16, liveViewPort: UInt16? = nil)
    case folder(path: String)
    /// The built-in demo card (nil path) or the virtual camera serving a folder, in-process.
    case simulator(path: String?)

    public static let defaultPTPIPPort: UInt16 = 15740
    /// Fujifilm's command port; its event port is the next one.
    public static let defaultFujiPort: UInt16 = 55740

    public init(parsing text: String) throws {
        guard let colon = text.firstIndex(of: ":") else {
            throw CameraURLError("'\(text)' is not a camera URL (try usb:, ptpip:HOST, fuji:HOST, dir:PATH or sim:)")
        }
        let scheme = text[..<colon].lowercased()
        let rest = String(text[text.index(after: colon)...])
        switch scheme {
        case "usb":
            if rest.isEmpty {
                self = .usbFirst
            } else if let equals = rest.firstIndex(of: "=") {
                let key = rest[..<equals].lowercased()
                let value = String(rest[rest.index(after: equals)...])
                guard !value.isEmpty, key == "serial" || key == "model" else {
                    throw CameraURLError("use usb:serial=SERIAL or usb:model=NAME, as in usb:serial=0123456789 or usb:model=EOS")
                }
                self = key == "serial" ? .usbSerial(value) : .usbModel(value)
            } else if let comma = rest.firstIndex(of: ",") {
                guard let bus = Int(rest[..<comma]), let address = Int(rest[rest.index(after: comma)...]),
                    (0...255).contains(bus), (0...255).contains(address)
                else { throw CameraURLError("usb:BUS,ADDR needs two numbers, as in usb:001,004") }
                self = .usbAddress(bus: bus, address: address)
            } else {
                let parts = rest.split(separator: ":", omittingEmptySubsequences: false)
                guard parts.count == 2, parts.allSatisfy({ $0.count == 4 }),
                    let vendor = UInt16(parts[0], radix: 16), let product = UInt16(parts[1], radix: 16)
                else { throw CameraURLError("usb:VVVV:PPPP needs two 4-digit hex ids, as in usb:04a9:32b4") }
                self = .usbID(vendor: vendor, product: product)
            }
        case "ptpip":
            let (host, ports) = try Self.hostAndPorts(rest, in: text, scheme: "ptpip", example: "ptpip:192.168.1.1")
            let commandPort = ports.first ?? Self.defaultPTPIPPort
            self = .ptpip(host: host, port: commandPort, eventPort: ports.count > 1 ? ports[1] : commandPort)
        case "fuji":
            let (host, ports) = try Self.hostAndPorts(rest, in: text, scheme: "fuji", example: "fuji:192.168.0.1")
            let commandPort = ports.first ?? Self.defaultFujiPort
            let eventPort = ports.count > 1 ? ports[1] : (commandPort == UInt16.max ? commandPort : commandPort + 1)
            let liveViewPort = ports.count > 2 && ports[2] != eventPort &+ 1 ? ports[2] : nil
            self = .fuji(host: host, port: commandPort, eventPort: eventPort, liveViewPort: liveViewPort)
        case "dir", "file":
            guard !rest.isEmpty else { throw CameraURLError("dir: needs a folder, as in dir:/media/sdcard") }
            self = .folder(path: rest)
        case "sim":
            self = .simulator(path: rest.isEmpty ? nil : rest)
        default:
            throw CameraURLError("unknown camera scheme '\(scheme):' (use usb:, ptpip:, fuji:, dir: or sim:)")
        }
    }

    /// `HOST[:PORT[:EVENTPORT]]` (an IPv6 host in brackets; fuji: also `:LIVEVIEWPORT`): the host and the ports given.
    private static func hostAndPorts(_ rest: String, in text: String, scheme: String, example: String) throws -> (String, [UInt16]) {
        var host = rest
        var ports: [Substring] = []
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { throw CameraURLError("unterminated [ in \(text)") }
            host = String(rest[rest.index(after: rest.startIndex)..<close])
            let after = rest[rest.index(after: close)...]
            ports = after.isEmpty ? [] : after.dropFirst().split(separator: ":", omittingEmptySubsequences: false)
        } else {
            let parts = rest.split(separator: ":", omittingEmptySubsequences: false)
            host = String(parts[0])
            ports = Array(parts.dropFirst())
        }
        guard !host.isEmpty else { throw CameraURLError("\(scheme): needs a host, as in \(example)") }
        guard ports.count <= (scheme == "fuji" ? 3 : 2) else { throw CameraURLError("too many ports in \(text)") }
        let numbers = try ports.map { s -> UInt16 in
            guard let p = UInt16(s), p > 0 else { throw CameraURLError("'\(s)' is not a port number") }
            return p
        }
        return (host, numbers)
    }

    public var description: String {
        func hex(_ v: UInt16) -> String {
            let s = String(v, radix: 16)
            return String(repeating: "0", count: 4 - s.count) + s
        }
        switch self {
        case .usbFirst: return "usb:"
        case .usbAddress(let bus, let address):
            // As `devices` lists it (and lsusb): three digits each.
            func pad(_ n: Int) -> String { String(repeating: "0", count: max(0, 3 - String(n).count)) + String(n) }
            return "usb:\(pad(bus)),\(pad(address))"
        case .usbID(let vendor, let product): return "usb:\(hex(vendor)):\(hex(product))"
        case .usbSerial(let serial): return "usb:serial=\(serial)"
        case .usbModel(let model): return "usb:model=\(model)"
        case .ptpip(let host, let port, let eventPort):
            let h = host.contains(":") ? "[\(host)]" : host
            return eventPort == port ? "ptpip:\(h):\(port)" : "ptpip:\(h):\(port):\(eventPort)"
        case .fuji(let host, let port, let eventPort, let liveViewPort):
            let h = host.contains(":") ? "[\(host)]" : host
            if let liveViewPort { return "fuji:\(h):\(port):\(eventPort):\(liveViewPort)" }
            return eventPort == port &+ 1 ? "fuji:\(h):\(port)" : "fuji:\(h):\(port):\(eventPort)"
        case .folder(let path): return "dir:\(path)"
        case .simulator(let path): return "sim:\(path ?? "")"
        }
    }
}

extension CameraURL {
    /// The URL without what could name a user: a folder's path, a host name (an address stays).
    public var redactedDescription: String {
        switch self {
        case .folder: return "dir:<path>"
        case .usbSerial: return "usb:serial=<serial>"
        case .simulator(let path?): return path.isEmpty ? "sim:" : "sim:<path>"
        case .ptpip(let host, let port, let eventPort):
            let isAddress = host.allSatisfy { $0.isHexDigit || $0 == "." || $0 == ":" }
            return isAddress ? description : CameraURL.ptpip(host: "<host>", port: port, eventPort: eventPort).description
        case .fuji(let host, let port, let eventPort, let liveViewPort):
            let isAddress = host.allSatisfy { $0.isHexDigit || $0 == "." || $0 == ":" }
            return isAddress
                ? description : CameraURL.fuji(host: "<host>", port: port, eventPort: eventPort, liveViewPort: liveViewPort).description
        default: return description
        }
    }
}

public struct CameraURLError: Error, Equatable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

extension CameraURLError: CategorizedError {
    /// A camera address that does not parse is a bad request.
    public var category: FailureCategory { .invalidRequest }
}
