import Foundation
import POSIX
import MediaFormats

/// A read-only HTTP endpoint on 127.0.0.1 that serves one file by byte ranges, so a player can open and seek
/// a video on the camera without it being downloaded: each range it asks for becomes reads of the source
/// (GetPartialObject on a camera).
///
/// One file per endpoint, at a random path (`/<token>/<name>`) on a port chosen when it starts. GET and HEAD
/// of that path only; `Range:` gives 206 with `Content-Range`, an unsatisfiable range 416; other paths 404,
/// other methods 405. Request heads are bounded in size and in time, so a hostile or stuck client costs a
/// thread for a few seconds at most.
public final class MediaStreamServer: Sendable {
    /// Bounds on what one client may cost.
    public struct Limits: Sendable {
        /// The largest request head (request line and headers) accepted; larger gets 431.
        public var maxHeadBytes = 8192
        /// Seconds a client has to send a whole request head once it starts one (slow senders get 408).
        public var headTimeout = 5.0
        /// Seconds a kept-alive connection may sit idle between requests.
        public var idleTimeout = 15.0
        /// Seconds a client may take nothing while a response is sent (a paused player holds its reads).
        public var sendTimeout = 600.0
        /// Connections served at once; more get 503.
        public var maxConnections = 8
        /// Bytes read from the source per step of a response body.
        public var chunkSize = 128 << 10
        /// The kernel's send buffer per connection: with `chunkSize`, what is read from the camera ahead of
        /// what the player took, and wasted when it abandons a response to seek.
        public var sendBufferSize = 128 << 10

        public init() {}
    }

    private let source: any ByteRangeSource & Sendable
    private let contentType: String
    private let limits: Limits
    /// The path the file is served at: `/<32 hex digits>/<safe name>`.
    public let path: String

    /// The listener, the connections and their threads, and the counts for diagnostics.
    private let serving = Locked(Serving())

    private struct Serving {
        var listener: Socket?
        var boundPort: UInt16 = 0
        var connections: [ObjectIdentifier: Socket] = [:]
        var acceptThread: JoinableThread?
        var connectionThreads: [ObjectIdentifier: JoinableThread] = [:]
        var stopped = false
        var served = 0
        var sent: UInt64 = 0
        var log: [String] = []
    }

    /// An endpoint for `source`, announced as `contentType`; `name` only shapes the URL (made safe).
    public init(source: any ByteRangeSource & Sendable, name: String, contentType: String = "video/mp4", limits: Limits = Limits()) {
        self.source = source
        self.contentType = contentType
        self.limits = limits
        var generator = SystemRandomNumberGenerator()
        let token = (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
        path = "/\(token)/\(Self.safeName(name))"
    }

    deinit { stop() }

    /// The port on 127.0.0.1, once started.
    public var port: UInt16 { serving.withLock { $0.boundPort } }

    /// `http://127.0.0.1:PORT/TOKEN/NAME`, once started.
    public var url: String { "http://127.0.0.1:\(port)\(path)" }

    /// Requests answered so far (any status).
    public var requestsServed: Int { serving.withLock { $0.served } }

    /// Body bytes sent so far.
    public var bytesSent: UInt64 { serving.withLock { $0.sent } }

    /// One line per GET/HEAD of the file: the range asked for and the body bytes sent (for diagnostics).
    var requestLog: [String] { serving.withLock { $0.log } }

    /// Binds 127.0.0.1 on a free port and starts accepting.
    public func start() throws(PlaybackError) {
        let socket: Socket
        do {
            socket = try Socket.listen(host: "127.0.0.1", port: 0, backlog: 16)
        } catch {
            throw PlaybackError(.streamEndpoint(error))
        }
        serving.withLock {
            $0.listener = socket
            $0.boundPort = socket.localPort
        }
        do {
            let thread = try JoinableThread(name: "stream-accept") { [self] in acceptLoop(socket) }
            serving.withLock { $0.acceptThread = thread }
        } catch {
            serving.withLock { $0.listener = nil }
            socket.close()
            throw PlaybackError(.streamEndpoint(error))
        }
    }

    /// Stops accepting, ends every connection and waits for all of the endpoint's threads to be gone.
    public func stop() {
        let (listener, acceptThread) = serving.withLock { serving -> (Socket?, JoinableThread?) in
            serving.stopped = true
            defer {
                serving.listener = nil
                serving.acceptThread = nil
            }
            return (serving.listener, serving.acceptThread)
        }
        listener?.shutdown()
        acceptThread?.join()
        // No connection is admitted any more: end the ones there are and wait for their threads.
        let (open, threads) = serving.withLock { (Array($0.connections.values), Array($0.connectionThreads.values)) }
        open.forEach { $0.shutdown() }
        threads.forEach { $0.join() }
        listener?.close()
    }

    // MARK: Connections

    private func acceptLoop(_ listener: Socket) {
        while true {
            let next: Socket?
            do {
                next = try listener.accept()
            } catch {
                if serving.withLock({ $0.stopped }) { return }
                continue  // a client that gave up, or descriptors short for a moment
            }
            guard let connection = next else { return }
            let peer = connection.peerHost
            // Bound to 127.0.0.1, so only this machine can connect; refuse anything else all the same.
            guard peer.hasPrefix("127.") else {
                connection.close()
                continue
            }
            let admitted = serving.withLock { serving -> Bool in
                guard !serving.stopped, serving.connections.count < limits.maxConnections else { return false }
                serving.connections[ObjectIdentifier(connection)] = connection
                return true
            }
            guard admitted else {
                let response = Self.head(status: 503, "Service Unavailable", headers: ["Content-Length": "0"], keepAlive: false)
                try? connection.send(response, .until(.after(1)))
                connection.close()
                continue
            }
            connection.limitSendBuffer(to: Int32(clamping: limits.sendBufferSize))
            let id = ObjectIdentifier(connection)
            do {
                let thread = try JoinableThread(name: "stream-conn") { [self] in
                    serve(connection)
                    connection.close()
                    serving.withLock {
                        $0.connections[id] = nil
                        $0.connectionThreads[id] = nil
                    }
                }
                // Kept for `stop` to join, unless it has already finished.
                serving.withLock { if $0.connections[id] != nil { $0.connectionThreads[id] = thread } }
            } catch {
                serving.withLock { $0.connections[id] = nil }
                connection.close()
            }
        }
    }

    /// Answers requests on one connection until the client closes it, asks to, misbehaves, or goes quiet.
    private func serve(_ connection: Socket) {
        var pending = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 4096)
        while !serving.withLock({ $0.stopped }) {
            // Wait for the next request to start (idle), then for its whole head (bounded).
            var headDeadline: Deadline? = nil
            let idleDeadline = Deadline.after(limits.idleTimeout)
            var found: (headEnd: Int, consumed: Int)?
            while found == nil {
                if let end = Self.endOfHead(pending) {
                    found = end
                    break
                }
                if pending.count > limits.maxHeadBytes {
                    respondAndClose(connection, status: 431, "Request Header Fields Too Large")
                    return
                }
                if headDeadline == nil && !pending.isEmpty { headDeadline = .after(limits.headTimeout) }
                let got: Int
                do {
                    got = try chunk.withUnsafeMutableBytes { (raw) throws(SystemError) in try connection.receiveSome(into: raw, .until(headDeadline ?? idleDeadline)) }
                } catch let error as SystemError where error.isTimeout {
                    if !pending.isEmpty { respondAndClose(connection, status: 408, "Request Timeout") }
                    return
                } catch {
                    return
                }
                if got == 0 { return }
                pending.append(contentsOf: chunk[0..<got])
            }
            let (end, consumed) = found!
            guard consumed <= limits.maxHeadBytes else {
                respondAndClose(connection, status: 431, "Request Header Fields Too Large")
                return
            }
            let head = HTTPRequestHead(pending[0..<end])
            pending.removeFirst(consumed)
            guard let head else {
                respondAndClose(connection, status: 400, "Bad Request")
                return
            }
            guard respond(to: head, on: connection) else { return }
        }
    }

    /// Sends the response to one request; false when the connection must close.
    private func respond(to head: HTTPRequestHead, on connection: Socket) -> Bool {
        countRequest()
        // This endpoint never reads bodies; a request that carries one cannot be followed on this connection.
        let carriesBody = !head.values("transfer-encoding").isEmpty || head.values("content-length").contains { $0 != "0" }
        if carriesBody || head.values("content-length").count > 1 {
            respondAndClose(connection, status: 400, "Bad Request", counted: true)
            return false
        }
        guard head.target == path else {
            return send(connection, status: 404, "Not Found", keepAlive: head.keepsAlive)
        }
        guard head.method == "GET" || head.method == "HEAD" else {
            return send(connection, status: 405, "Method Not Allowed", extra: ["Allow": "GET, HEAD"], keepAlive: head.keepsAlive)
        }
        let ranges = head.values("range")
        let length = source.length
        let request = ranges.count > 1 ? .unsatisfiable : ByteRangeRequest(header: ranges.first, length: length)
        var headers = [
            "Content-Type": contentType, "Accept-Ranges": "bytes", "Cache-Control": "no-store",
        ]
        let span: ClosedRange<UInt64>?
        let status: Int
        let reason: String
        switch request {
        case .whole:
            (status, reason) = (200, "OK")
            span = length > 0 ? 0...(length - 1) : nil
        case .range(let range):
            (status, reason) = (206, "Partial Content")
            span = range
            headers["Content-Range"] = "bytes \(range.lowerBound)-\(range.upperBound)/\(length)"
        case .unsatisfiable:
            headers["Content-Range"] = "bytes */\(length)"
            return send(connection, status: 416, "Range Not Satisfiable", extra: headers, keepAlive: head.keepsAlive)
        }
        let bodyLength = span.map { $0.upperBound - $0.lowerBound + 1 } ?? 0
        headers["Content-Length"] = String(bodyLength)
        let keepAlive = head.keepsAlive
        do {
            try connection.send(Self.head(status: status, reason, headers: headers, keepAlive: keepAlive), .until(.after(limits.sendTimeout)))
            guard head.method == "GET", let span else { return keepAlive }
            var offset = span.lowerBound
            defer {
                let line = "\(ranges.first ?? "whole"): \(offset - span.lowerBound) B"
                serving.withLock { $0.log.append(line) }
            }
            while offset <= span.upperBound {
                if serving.withLock({ $0.stopped }) { return false }
                let want = Int(min(UInt64(limits.chunkSize), span.upperBound - offset + 1))
                let bytes = try source.read(offset: offset, count: want)
                guard !bytes.isEmpty, bytes.count <= want else { return false }  // the file shrank, or a lying source
                try connection.send(bytes, .until(.after(limits.sendTimeout)))
                serving.withLock { $0.sent += UInt64(bytes.count) }
                offset += UInt64(bytes.count)
            }
            return keepAlive
        } catch {
            // The client went away, took nothing for too long, or the camera failed mid-body: the response
            // cannot be completed, so the connection ends here.
            return false
        }
    }

    private func countRequest() {
        serving.withLock { $0.served += 1 }
    }

    /// Sends a response without a body; false when the connection must close.
    private func send(_ connection: Socket, status: Int, _ reason: String, extra: [String: String] = [:], keepAlive: Bool) -> Bool {
        var headers = extra
        headers["Content-Length"] = "0"
        do {
            try connection.send(Self.head(status: status, reason, headers: headers, keepAlive: keepAlive), .until(.after(limits.headTimeout)))
            return keepAlive
        } catch {
            return false
        }
    }

    /// Answers with an error and ends the connection. What the client still sends is read and dropped for a
    /// moment first (a "lingering close"), so the kernel does not reset the connection before the client has
    /// read the answer.
    private func respondAndClose(_ connection: Socket, status: Int, _ reason: String, counted: Bool = false) {
        if !counted { countRequest() }
        _ = send(connection, status: status, reason, keepAlive: false)
        connection.shutdownWrite()
        var scratch = [UInt8](repeating: 0, count: 16 << 10)
        var dropped = 0
        let deadline = Deadline.after(1)
        while dropped < (1 << 20) {
            let got = (try? scratch.withUnsafeMutableBytes { (raw) throws(SystemError) in try connection.receiveSome(into: raw, .until(deadline)) }) ?? 0
            if got == 0 { break }
            dropped += got
        }
    }

    // MARK: Wire format

    static func head(status: Int, _ reason: String, headers: [String: String], keepAlive: Bool) -> [UInt8] {
        var text = "HTTP/1.1 \(status) \(reason)\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { text += "\(name): \(value)\r\n" }
        text += "Connection: \(keepAlive ? "keep-alive" : "close")\r\n\r\n"
        return Array(text.utf8)
    }

    /// Finds the blank line that ends a request head (CRLF or bare LF line ends): where the head's last line
    /// ends, and where the next request starts.
    static func endOfHead(_ bytes: [UInt8]) -> (headEnd: Int, consumed: Int)? {
        let newline = UInt8(ascii: "\n")
        let carriageReturn = UInt8(ascii: "\r")
        for index in bytes.indices where bytes[index] == newline {
            let next = index + 1
            var consumed: Int?
            if next < bytes.count && bytes[next] == newline {
                consumed = next + 1
            } else if next + 1 < bytes.count && bytes[next] == carriageReturn && bytes[next + 1] == newline {
                consumed = next + 2
            }
            guard let consumed else { continue }
            let headEnd = index > 0 && bytes[index - 1] == carriageReturn ? index - 1 : index
            return (headEnd, consumed)
        }
        return nil
    }

    /// The name reduced to letters, digits, dot, dash and underscore, so it can sit in a URL as is.
    static func safeName(_ name: String) -> String {
        let safe = name.unicodeScalars.map { scalar -> Character in
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "._-".unicodeScalars.contains(scalar))
                ? Character(scalar) : "_"
        }
        let text = String(safe.prefix(100)).trimmingPrefixDots()
        return text.isEmpty ? "media" : text
    }
}

extension String {
    fileprivate func trimmingPrefixDots() -> String {
        String(drop { $0 == "." })
    }
}
