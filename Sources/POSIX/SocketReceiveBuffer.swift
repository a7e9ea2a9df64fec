/// What a stream's reader received from a socket and has not yet taken (PTP/IP's packets, Fujifilm's
/// containers). Each `recv` asks for all the room there is, so what the peer sent together (a small file's
/// Start_Data, End_Data and response) comes in one call instead of one per field, and a wait (poll) happens
/// only when the socket has nothing: never before a read that would not block. Bytes past the packet being
/// read stay here for the next one. One reader at a time.
public final class SocketReceiveBuffer {
    /// Room for the largest control packet of the protocol; grown once to `payloadCapacity` by a large data
    /// payload.
    private let payloadCapacity: Int
    private var storage: UnsafeMutableRawBufferPointer
    private var start = 0
    private var end = 0

    public init(initialCapacity: Int, payloadCapacity: Int) {
        self.payloadCapacity = payloadCapacity
        storage = .allocate(byteCount: initialCapacity, alignment: 8)
    }

    deinit { storage.deallocate() }

    /// Bytes received and not taken.
    public var count: Int { end - start }

    /// The first `count` bytes held, valid until the next `fill` (`count` at most `self.count`).
    public func bytes(_ count: Int) -> UnsafeRawBufferPointer {
        precondition(count <= self.count)
        return UnsafeRawBufferPointer(rebasing: storage[start..<(start + count)])
    }

    /// The u32 (little-endian) at `offset` of what is held.
    public func uint32(at offset: Int) -> UInt32 {
        let b = bytes(offset + 4)
        return UInt32(b[offset]) | UInt32(b[offset + 1]) << 8 | UInt32(b[offset + 2]) << 16 | UInt32(b[offset + 3]) << 24
    }

    /// Drops the first `count` bytes held (they were taken).
    public func consume(_ count: Int) {
        precondition(count <= self.count)
        start += count
        if start == end {
            start = 0
            end = 0
        }
    }

    /// Receives until at least `wanted` bytes are held (taking whatever more the socket has, up to the room
    /// left), each wait bounded by `patience`. False when the peer ended the stream first (what came is
    /// still held).
    public func fill(_ wanted: Int, from socket: Socket, _ patience: Patience) throws(SystemError) -> Bool {
        if count >= wanted { return true }
        makeRoom(for: wanted)
        while count < wanted {
            let got = try socket.receiveSome(into: UnsafeMutableRawBufferPointer(rebasing: storage[end...]), patience)
            if got == 0 { return false }
            end += got
        }
        return true
    }

    /// Moves what is held to the front, growing the storage when `wanted` bytes would not fit.
    private func makeRoom(for wanted: Int) {
        if start + wanted <= storage.count { return }
        let held = count
        if wanted > storage.count {
            let grown = UnsafeMutableRawBufferPointer.allocate(byteCount: max(wanted, payloadCapacity), alignment: 8)
            if held > 0 { grown.copyMemory(from: UnsafeRawBufferPointer(rebasing: storage[start..<end])) }
            storage.deallocate()
            storage = grown
        } else if held > 0 {
            storage.baseAddress!.copyMemory(from: storage.baseAddress! + start, byteCount: held)
        }
        start = 0
        end = held
    }
}
