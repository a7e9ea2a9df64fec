import Foundation

/// The head of one HTTP/1.x request, as far as a read-only file endpoint needs it: method, target, version
/// and the headers (names lowercased). Anything that is not plain, well-formed HTTP/1.x is refused.
struct HTTPRequestHead: Equatable {
    var method: String
    var target: String
    /// 0 for HTTP/1.0, 1 for HTTP/1.1.
    var minorVersion: Int
    var headers: [(name: String, value: String)]

    static func == (a: HTTPRequestHead, b: HTTPRequestHead) -> Bool {
        a.method == b.method && a.target == b.target && a.minorVersion == b.minorVersion
            && a.headers.map(\.name) == b.headers.map(\.name) && a.headers.map(\.value) == b.headers.map(\.value)
    }

    /// Every value of header `name` (lowercase).
    func values(_ name: String) -> [String] {
        headers.filter { $0.name == name }.map(\.value)
    }

    /// True when the connection should stay open after the response: HTTP/1.1 without `Connection: close`.
    var keepsAlive: Bool {
        let tokens = values("connection").flatMap { $0.lowercased().split(separator: ",") }
            .map { $0.trimmingCharacters(in: [" ", "\t"]) }
        if tokens.contains("close") { return false }
        return minorVersion >= 1 || tokens.contains("keep-alive")
    }

    /// Parses the bytes before the blank line (without it). Nil for anything malformed: a bad request line,
    /// a header line without a colon, folded lines, control characters, or a version other than 1.0/1.1.
    init?(_ bytes: ArraySlice<UInt8>) {
        var lines = [ArraySlice<UInt8>]()
        var start = bytes.startIndex
        var index = bytes.startIndex
        while index < bytes.endIndex {
            if bytes[index] == UInt8(ascii: "\n") {
                var end = index
                if end > start && bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                lines.append(bytes[start..<end])
                start = index + 1
            }
            index += 1
        }
        if start < bytes.endIndex { lines.append(bytes[start...]) }
        guard let first = lines.first else { return nil }
        // Only visible ASCII and spaces/tabs anywhere in the head.
        for line in lines where line.contains(where: { ($0 < 0x20 && $0 != 0x09) || $0 >= 0x7F }) { return nil }

        let parts = first.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty,
            parts[0].allSatisfy({ Self.isTokenByte($0) })
        else { return nil }
        let version = String(decoding: parts[2], as: UTF8.self)
        switch version {
        case "HTTP/1.1": minorVersion = 1
        case "HTTP/1.0": minorVersion = 0
        default: return nil
        }
        method = String(decoding: parts[0], as: UTF8.self)
        target = String(decoding: parts[1], as: UTF8.self)

        headers = []
        for line in lines.dropFirst() {
            guard let first = line.first, first != UInt8(ascii: " "), first != UInt8(ascii: "\t"),
                let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex,
                line[line.startIndex..<colon].allSatisfy({ Self.isTokenByte($0) })
            else { return nil }
            let name = String(decoding: line[line.startIndex..<colon], as: UTF8.self).lowercased()
            let value = String(decoding: line[(colon + 1)...], as: UTF8.self).trimmingCharacters(in: [" ", "\t"])
            headers.append((name, value))
        }
    }

    /// RFC 9110 token characters (method names, header names).
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }
}

extension String {
    fileprivate func trimmingCharacters(in set: Set<Character>) -> String {
        var view = Substring(self)
        while let first = view.first, set.contains(first) { view = view.dropFirst() }
        while let last = view.last, set.contains(last) { view = view.dropLast() }
        return String(view)
    }
}
