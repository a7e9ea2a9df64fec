/// SSDP, UPnP's discovery (UPnP Device Architecture 1.1, §1.3): HTTP-shaped text over UDP. A control point
/// multicasts `M-SEARCH * HTTP/1.1` naming a search target (ST); each device that has it answers the
/// sender, unicast, with `HTTP/1.1 200 OK` and headers saying what and where it is.
struct SSDPMessage: Equatable, Sendable {
    /// "M-SEARCH * HTTP/1.1", "HTTP/1.1 200 OK", "NOTIFY * HTTP/1.1".
    var startLine: String
    /// Header names in upper case, values trimmed; the last of a repeated header wins.
    var headers: [String: String]

    static let group = "239.255.255.250"
    static let port: UInt16 = 1900

    var isSearch: Bool { startLine.uppercased().hasPrefix("M-SEARCH ") }
    var isResponse: Bool { startLine.uppercased().hasPrefix("HTTP/1.") && startLine.contains(" 200") }

    subscript(_ name: String) -> String? { headers[name.uppercased()] }

    /// A search for `target`, answered within `waitSeconds` (MX).
    static func search(target: String, waitSeconds: Int = 1) -> SSDPMessage {
        SSDPMessage(
            startLine: "M-SEARCH * HTTP/1.1",
            headers: ["HOST": "\(group):\(port)", "MAN": "\"ssdp:discover\"", "MX": "\(waitSeconds)", "ST": target])
    }

    /// Text with CRLF line ends, the start line first, then the headers in a fixed order, then an empty line.
    func encoded() -> [UInt8] {
        let order = ["HOST", "MAN", "MX", "ST", "CACHE-CONTROL", "EXT", "LOCATION", "SERVER", "USN"]
        let names = order.filter { headers[$0] != nil } + headers.keys.filter { !order.contains($0) }.sorted()
        var text = startLine + "\r\n"
        for name in names { text += "\(name): \(headers[name] ?? "")\r\n" }
        return Array((text + "\r\n").utf8)
    }

    init(startLine: String, headers: [String: String]) {
        self.startLine = startLine
        self.headers = [:]
        for (name, value) in headers { self.headers[name.uppercased()] = value }
    }

    /// Nil for a datagram that is not SSDP text: no start line, or more than 8 KiB or 64 headers.
    init?(decoding bytes: [UInt8]) {
        guard bytes.count <= 8192 else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
            .map { $0.hasSuffix("\r") ? String($0.dropLast()) : String($0) }
        guard let first = lines.first, first.contains("HTTP/1.") else { return nil }
        startLine = first
        headers = [:]
        for line in lines.dropFirst() {
            if line.isEmpty { break }
            guard headers.count < 64, let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].filter { !$0.isWhitespace }.uppercased()
            let value = line[line.index(after: colon)...].drop { $0 == " " || $0 == "\t" }
            headers[name] = String(value.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
        }
    }

    /// The host of the LOCATION header's URL (`http://192.168.1.2:49152/desc.xml` gives 192.168.1.2).
    var locationHost: String? {
        guard let location = self["LOCATION"], let scheme = location.firstRange(of: "://") else { return nil }
        let rest = location[scheme.upperBound...]
        let authority = rest.prefix { $0 != "/" }
        let host = authority.split(separator: ":").first.map(String.init) ?? ""
        return host.isEmpty ? nil : host
    }
}
