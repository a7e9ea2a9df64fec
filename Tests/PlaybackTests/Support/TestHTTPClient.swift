import Foundation
import POSIX
import Testing

@testable import Playback

/// One HTTP response as a test client read it.
struct HTTPResponse {
    var status: Int
    var headers: [String: String]
    var body: [UInt8]

    subscript(_ name: String) -> String? { headers[name.lowercased()] }
}

/// A raw HTTP/1.1 client over a loopback socket, for speaking to the endpoint correctly and incorrectly.
/// Every read is bounded by a deadline, so a server that hangs fails the test instead of hanging it.
final class TestHTTPClient {
    let socket: Socket
    private var pending = [UInt8]()
    static let patience = 10.0

    init(port: UInt16, host: String = "127.0.0.1") throws {
        socket = try Socket.connect(host: host, port: port, timeout: Self.patience)
    }

    deinit { socket.close() }

    func send(_ text: String) throws { try send(Array(text.utf8)) }

    func send(_ bytes: [UInt8]) throws {
        try socket.send(bytes, .until(.after(Self.patience)))
    }

    /// Sends a request (`GET`, target, extra header lines) and reads its response.
    func request(_ method: String = "GET", _ target: String, headers: [String] = []) throws -> HTTPResponse {
        var text = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for header in headers { text += header + "\r\n" }
        try send(text + "\r\n")
        return try readResponse(bodyless: method == "HEAD")
    }

    /// Reads one response: the head, then `Content-Length` bytes of body (none for HEAD).
    func readResponse(bodyless: Bool = false) throws -> HTTPResponse {
        let deadline = Deadline.after(Self.patience)
        var headEnd: (headEnd: Int, consumed: Int)?
        while true {
            headEnd = MediaStreamServer.endOfHead(pending)
            if headEnd != nil { break }
            guard try fill(deadline: deadline) else { throw ClientFailure(description: "connection closed before a response head") }
        }
        let head = String(decoding: pending[0..<headEnd!.headEnd], as: UTF8.self)
        pending.removeFirst(headEnd!.consumed)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, statusLine[0] == "HTTP/1.1", let status = Int(statusLine[1]) else {
            throw ClientFailure(description: "bad status line in \(head)")
        }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let length = bodyless ? 0 : Int(headers["content-length"] ?? "0") ?? 0
        while pending.count < length {
            guard try fill(deadline: deadline) else { throw ClientFailure(description: "connection closed mid-body") }
        }
        let body = Array(pending[0..<length])
        pending.removeFirst(length)
        return HTTPResponse(status: status, headers: headers, body: body)
    }

    /// Reads until the server closes the connection (true), or `timeout` passes (false). A reset counts as
    /// closed.
    func waitUntilClosed(timeout: Double) -> Bool {
        let deadline = Deadline.after(timeout)
        while true {
            do {
                if try !fill(deadline: deadline) { return true }
            } catch let failure as SystemError where failure.isTimeout {
                return false
            } catch {
                return true
            }
        }
    }

    private func fill(deadline: Deadline) throws -> Bool {
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        let got = try buffer.withUnsafeMutableBytes { (raw) throws(SystemError) in try socket.receiveSome(into: raw, .until(deadline)) }
        pending.append(contentsOf: buffer[0..<got])
        return got > 0
    }

    struct ClientFailure: Error, CustomStringConvertible {
        let description: String
    }
}
