/// What an HTTP server sends when a PTP/IP client opens a connection to it (a camera's web interface, a
/// router's page, a proxy on the port): a status line where the Init_Command_Ack was due. Its first bytes read
/// as a packet of a type PTP/IP does not have, so it is recognised by them and said for what it is.
public struct HTTPServerAnswer: Error, Equatable, Sendable, CustomStringConvertible {
    /// "192.168.1.10:15740"
    public var peer: String
    /// Its first line, printable ASCII only, at most 80 characters: `HTTP/1.1 400 Bad Request`.
    public var statusLine: String

    public init(peer: String, statusLine: String) {
        self.peer = peer
        self.statusLine = statusLine
    }

    /// The answer whose first bytes are `bytes`, when they are an HTTP status line (`HTTP/1.`); nil otherwise.
    init?(_ bytes: [UInt8], peer: String) {
        guard bytes.starts(with: Array("HTTP/1.".utf8)) else { return nil }
        let line = bytes.prefix { $0 != 13 && $0 != 10 }.prefix(80)
        self.init(peer: peer, statusLine: String(line.map { (32..<127).contains($0) ? Character(Unicode.Scalar($0)) : "?" }))
    }

    public var description: String { "\(peer) answered as an HTTP server (\(statusLine)), not as a PTP/IP camera" }
}
