import Foundation
import POSIX
import MediaFormats
import TestSupport
import Testing

@testable import Playback

/// The loopback streaming endpoint: ranges served byte for byte, HEAD, 416, 404, 405, only 127.0.0.1, and
/// hostile clients that neither crash nor hang it.
@Suite("Streaming endpoint", .tags(.process), .notInFastRun)
final class StreamServerTests {
    let bytes: [UInt8]
    let source: CountingByteSource<MemoryByteSource>
    let server: MediaStreamServer

    init() throws {
        bytes = Self.file
        source = CountingByteSource(MemoryByteSource(bytes))
        var limits = MediaStreamServer.Limits()
        limits.headTimeout = 0.5
        limits.idleTimeout = 1
        limits.maxConnections = 4
        limits.chunkSize = 64 << 10
        server = MediaStreamServer(source: source, name: "DJI 0003 (copy).MP4", limits: limits)
        try server.start()
    }

    deinit { server.stop() }

    /// A million and three bytes that differ everywhere (so a misplaced range shows), made once.
    static let file: [UInt8] = {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var bytes = [UInt8]()
        bytes.reserveCapacity(1_000_008)
        while bytes.count < 1_000_003 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            withUnsafeBytes(of: state) { bytes.append(contentsOf: $0) }
        }
        return Array(bytes.prefix(1_000_003))
    }()

    func client() throws -> TestHTTPClient { try TestHTTPClient(port: server.port) }

    @Test func theURLIsLoopbackWithARandomTokenAndASafeName() throws {
        #expect(server.url.hasPrefix("http://127.0.0.1:\(server.port)/"))
        let parts = server.path.split(separator: "/")
        #expect(parts.count == 2 && parts[0].count == 32 && parts[0].allSatisfy(\.isHexDigit))
        #expect(parts[1] == "DJI_0003__copy_.MP4")
        let other = MediaStreamServer(source: source, name: "../../etc/passwd")
        #expect(other.path != server.path)
        #expect(other.path.hasSuffix("/_.._etc_passwd"))
    }

    @Test func theWholeFileAndRangesAreServedByteForByte() throws {
        let client = try client()
        let whole = try client.request("GET", server.path)
        #expect(whole.status == 200 && whole["Accept-Ranges"] == "bytes" && whole["Content-Type"] == "video/mp4")
        #expect(whole.body == bytes)

        let length = bytes.count
        let cases: [(String, Range<Int>)] = [
            ("bytes=0-99", 0..<100), ("bytes=500000-500999", 500_000..<501_000), ("bytes=999000-", 999_000..<length),
            ("bytes=-10", (length - 10)..<length), ("bytes=1000000-2000000", 1_000_000..<length),
            ("bytes=0-0", 0..<1), ("bytes=-5000000", 0..<length), ("bytes=\(length - 1)-", (length - 1)..<length),
        ]
        for (header, expected) in cases {
            let response = try client.request("GET", server.path, headers: ["Range: \(header)"])
            #expect(response.status == 206, "\(header)")
            #expect(response["Content-Range"] == "bytes \(expected.lowerBound)-\(expected.upperBound - 1)/\(length)", "\(header)")
            #expect(response["Content-Length"] == String(expected.count))
            #expect(response.body == Array(bytes[expected]), "\(header)")
        }
        var generator = SeededRandom(test: "stream server ranges")
        for _ in 0..<30 {
            let start = Int.random(in: 0..<length, using: &generator)
            let end = min(length - 1, start + Int.random(in: 0..<300_000, using: &generator))
            let response = try client.request("GET", server.path, headers: ["Range: bytes=\(start)-\(end)"])
            #expect(response.status == 206 && response.body == Array(bytes[start...end]), "bytes=\(start)-\(end), \(generator)")
        }
    }

    @Test func aRangeReadsOnlyThoseBytesFromTheSource() throws {
        source.reset()
        let response = try client().request("GET", server.path, headers: ["Range: bytes=400000-400099"])
        #expect(response.body == Array(bytes[400_000..<400_100]))
        #expect(source.bytesRead == 100 && source.readCount == 1)
    }

    @Test func headAnswersLikeGetWithoutABody() throws {
        let client = try client()
        let head = try client.request("HEAD", server.path)
        #expect(head.status == 200 && head["Content-Length"] == String(bytes.count) && head.body.isEmpty)
        let ranged = try client.request("HEAD", server.path, headers: ["Range: bytes=10-19"])
        #expect(ranged.status == 206 && ranged["Content-Range"] == "bytes 10-19/\(bytes.count)" && ranged["Content-Length"] == "10")
        // The connection is still in step: the next response is the right one.
        let next = try client.request("GET", server.path, headers: ["Range: bytes=5-9"])
        #expect(next.body == Array(bytes[5..<10]))
    }

    @Test(arguments: [
        "bytes=1000003-", "bytes=2000000-3000000", "bytes=20-10", "bytes=-0", "bytes=abc", "bytes=0-1,5-9",
        "pages=0-10", "bytes=", "bytes=-", "bytes=99999999999999999999-", "0-10",
    ])
    func unsatisfiableRangesGet416WithTheLength(header: String) throws {
        let response = try client().request("GET", server.path, headers: ["Range: \(header)"])
        #expect(response.status == 416)
        #expect(response["Content-Range"] == "bytes */\(bytes.count)")
        #expect(response.body.isEmpty)
    }

    @Test func otherPathsAre404AndOtherMethods405() throws {
        let client = try client()
        let token = server.path.split(separator: "/")[0]
        for target in ["/", "/\(token)", "/\(token)/other.MP4", server.path + "?x=1", server.path + "/", "/../" + server.path,
            "http://127.0.0.1\(server.path)", "*", server.path.uppercased(),
        ] {
            #expect(try client.request("GET", target).status == 404, "\(target)")
        }
        for method in ["POST", "PUT", "DELETE", "OPTIONS", "PATCH", "TRACE", "CONNECT"] {
            let response = try client.request(method, server.path)
            #expect(response.status == 405, "\(method)")
            #expect(response["Allow"] == "GET, HEAD")
        }
        #expect(try client.request("GET", server.path, headers: ["Range: bytes=0-3"]).body == Array(bytes[0..<4]))
    }

    @Test func onlyLoopbackIsListenedOn() throws {
        // Another address of this machine (if it has one) reaches nothing on this port.
        let addresses = (try? ExternalTool.find("hostname")?.run(["-I"])).map { String(decoding: $0, as: UTF8.self) } ?? ""
        let others = addresses.split(separator: " ").map(String.init).filter { $0.contains(".") && !$0.hasPrefix("127.") }
        for address in others {
            #expect(throws: (any Error).self, "\(address):\(server.port) answered") {
                _ = try TestHTTPClient(port: server.port, host: address)
            }
        }
        #expect(try client().request("HEAD", server.path).status == 200)
    }

    @Test func hugeHeadsAreRefusedWith431() throws {
        let client = try client()
        try client.send("GET \(server.path) HTTP/1.1\r\nX-Filler: " + String(repeating: "a", count: 9000) + "\r\n\r\n")
        #expect(try client.readResponse().status == 431)
        #expect(client.waitUntilClosed(timeout: 5))
        // Much larger, sent without ever ending the head: refused once it passes the limit.
        let flood = try self.client()
        try? flood.send(Array(repeating: UInt8(ascii: "a"), count: 200_000))
        #expect(flood.waitUntilClosed(timeout: 5))
        #expect(try self.client().request("HEAD", server.path).status == 200)
    }

    @Test(arguments: [
        "garbage\r\n\r\n", "GET\r\n\r\n", "GET / HTTP/2.0\r\n\r\n", "GET  / HTTP/1.1\r\n\r\n",
        "GET / HTTP/1.1\r\nno colon here\r\n\r\n", "GET / HTTP/1.1\r\n folded: x\r\n\r\n",
        "GET / HTTP/1.1\r\nX: \u{01}\r\n\r\n", "\r\n\r\n", "G\u{00}T / HTTP/1.1\r\n\r\n",
    ])
    func malformedRequestsGet400(request: String) throws {
        let client = try client()
        try client.send(request)
        #expect(try client.readResponse().status == 400)
        #expect(client.waitUntilClosed(timeout: 5))
    }

    @Test func requestsWithBodiesAreRefused() throws {
        let client = try client()
        try client.send("GET \(server.path) HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello")
        #expect(try client.readResponse().status == 400)
        #expect(client.waitUntilClosed(timeout: 5))
    }

    @Test func binaryJunkIsSurvived() throws {
        var generator = SeededRandom(test: "stream server junk")
        for _ in 0..<20 {
            let client = try client()
            let junk = (0..<Int.random(in: 1..<5000, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            try? client.send(junk + Array("\r\n\r\n".utf8))
            #expect(client.waitUntilClosed(timeout: 5), "\(generator)")
        }
        #expect(try client().request("HEAD", server.path).status == 200)
    }

    @Test func aSlowSenderIsCutOffAfterTheHeadTimeout() throws {
        let client = try client()
        let started = monotonicSeconds()
        try client.send("GET \(server.path) HTTP/1.1\r\nHost: 127")
        // It never finishes its head; the server answers 408 and closes within its 0.5 s limit.
        let response = try client.readResponse()
        #expect(response.status == 408)
        #expect(client.waitUntilClosed(timeout: 5))
        #expect(monotonicSeconds() - started < 4)
    }

    @Test func anIdleConnectionIsClosed() throws {
        let client = try client()
        #expect(try client.request("HEAD", server.path).status == 200)
        #expect(client.waitUntilClosed(timeout: 5))
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() throws {
        let client = try client()
        try client.send(
            "GET \(server.path) HTTP/1.1\r\nRange: bytes=0-9\r\n\r\nHEAD / HTTP/1.1\r\n\r\nGET \(server.path) HTTP/1.1\r\nRange: bytes=10-19\r\nConnection: close\r\n\r\n")
        #expect(try client.readResponse().body == Array(bytes[0..<10]))
        #expect(try client.readResponse(bodyless: true).status == 404)
        let last = try client.readResponse()
        #expect(last.body == Array(bytes[10..<20]) && last["Connection"] == "close")
        #expect(client.waitUntilClosed(timeout: 5))
    }

    @Test func connectionsBeyondTheLimitGet503() throws {
        var limits = MediaStreamServer.Limits()
        limits.maxConnections = 3
        limits.idleTimeout = 60
        let server = MediaStreamServer(source: source, name: "clip.mp4", limits: limits)
        try server.start()
        defer { server.stop() }
        let held = try (0..<3).map { _ in try TestHTTPClient(port: server.port) }
        // Make sure all three were admitted before the fourth comes.
        for client in held { #expect(try client.request("HEAD", server.path).status == 200) }
        let extra = try TestHTTPClient(port: server.port)
        #expect(try extra.readResponse().status == 503)
        #expect(extra.waitUntilClosed(timeout: 5))
        held.forEach { $0.socket.close() }
    }

    @Test func stopEndsAResponseAReaderStopsTaking() throws {
        var limits = MediaStreamServer.Limits()
        limits.chunkSize = 64 << 10
        let big = MemoryByteSource([UInt8](repeating: 7, count: 64 << 20))
        let server = MediaStreamServer(source: big, name: "big.mp4", limits: limits)
        try server.start()
        let client = try TestHTTPClient(port: server.port)
        try client.send("GET \(server.path) HTTP/1.1\r\n\r\n")
        // The client reads nothing, so the server's send blocks on a full socket; stop() still returns.
        let started = monotonicSeconds()
        server.stop()
        #expect(monotonicSeconds() - started < 5)
        #expect(server.bytesSent < 64 << 20)
        #expect(throws: (any Error).self) { _ = try TestHTTPClient(port: server.port).request("HEAD", server.path) }
    }
}
