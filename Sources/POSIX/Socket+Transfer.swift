#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// How long a transfer may wait for the peer.
public enum Patience: Sendable {
    /// No bound.
    case forever
    /// The whole transfer ends by this moment.
    case until(Deadline)
    /// Each wait for the peer to send (or take) more is bounded by this many seconds; a peer that keeps
    /// moving may take as long as it needs.
    case eachWait(Double)

    var nextDeadline: Deadline? {
        switch self {
        case .forever: nil
        case .until(let deadline): deadline
        case .eachWait(let seconds): .after(seconds)
        }
    }
}

/// Reading and writing: blocking in effect, but every wait goes through poll with a bound.
extension Socket {
    /// Waits until the socket is readable (data, end of stream or an error); false when `deadline` passes.
    public func waitReadable(deadline: Deadline?) throws(SystemError) -> Bool {
        try leased(.receive, on: peer) { fd throws(SystemError) in
            try !pollDescriptors([fd], events: .readable, deadline: deadline)[0].isEmpty
        }
    }

    /// Reads what is there, up to `buffer.count` bytes, waiting within `patience` for the first of them.
    /// Returns 0 at the end of the stream; throws a timeout when the wait runs out first.
    public func receiveSome(into buffer: UnsafeMutableRawBufferPointer, _ patience: Patience) throws(SystemError) -> Int {
        try leased(.receive, on: peer) { fd throws(SystemError) in
            try receiveSome(fd, buffer, patience)
        }
    }

    /// A recv that does not block first; a wait (poll) only when nothing is there yet. The call's name
    /// is built only for an error (this runs a few times per file of a download).
    private func receiveSome(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer, _ patience: Patience) throws(SystemError) -> Int {
        while true {
            do throws(SystemError) {
                return try systemCall(.receive, on: peer) { recv(fd, buffer.baseAddress, buffer.count, Int32(MSG_DONTWAIT)) }
            } catch where error.errno == EAGAIN || error.errno == EWOULDBLOCK {
                if try pollDescriptors([fd], events: .readable, deadline: patience.nextDeadline)[0].isEmpty {
                    if case .eachWait(let seconds) = patience {
                        throw SystemError.timeout(.receive, on: peer, "nothing received for \(formatSeconds(seconds))")
                    }
                    throw SystemError.timeout(.receive, on: peer)
                }
            }
        }
    }

    /// Fills `buffer` from the stream within `patience`. Returns fewer bytes than asked only when the peer
    /// ended the stream (0: it ended before the first byte).
    public func receive(into buffer: UnsafeMutableRawBufferPointer, _ patience: Patience) throws(SystemError) -> Int {
        try leased(.receive, on: peer) { fd throws(SystemError) in
            var offset = 0
            while offset < buffer.count {
                let got = try receiveSome(fd, UnsafeMutableRawBufferPointer(rebasing: buffer[offset...]), patience)
                if got == 0 { break }
                offset += got
            }
            return offset
        }
    }

    /// Sends all of `bytes` within `patience`.
    public func send(_ bytes: UnsafeRawBufferPointer, _ patience: Patience) throws(SystemError) {
        try leased(.send, on: peer) { fd throws(SystemError) in
            var offset = 0
            while offset < bytes.count {
                do throws(SystemError) {
                    offset += try systemCall(.send, on: peer) {
                        Glibc.send(fd, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
                    }
                } catch where error.errno == EAGAIN || error.errno == EWOULDBLOCK {
                    if try pollDescriptors([fd], events: .writable, deadline: patience.nextDeadline)[0].isEmpty {
                        if case .eachWait(let seconds) = patience {
                            throw SystemError.timeout(.send, on: peer, "peer took nothing for \(formatSeconds(seconds))")
                        }
                        throw SystemError.timeout(.send, on: peer)
                    }
                }
            }
        }
    }

    public func send(_ bytes: [UInt8], _ patience: Patience) throws(SystemError) {
        try bytes.withUnsafeBytes { raw in Result { () throws(SystemError) in try send(raw, patience) } }.get()
    }

    /// Reads and drops whatever is waiting without blocking; true when the peer has closed (or the socket
    /// failed or was closed here), so a caller polling for the peer's end can tell it from data.
    public func drainReachedEnd() -> Bool {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 1)
        defer { buffer.deallocate() }
        let ended = try? leased(.receive, on: peer) { fd throws(SystemError) in
            while true {
                do throws(SystemError) {
                    let got = try systemCall(.receive, on: peer) { recv(fd, buffer.baseAddress, buffer.count, Int32(MSG_DONTWAIT)) }
                    if got == 0 { return true }
                } catch {
                    return !(error.errno == EAGAIN || error.errno == EWOULDBLOCK)
                }
            }
        }
        return ended ?? true
    }
}
