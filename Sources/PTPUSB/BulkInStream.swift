import Foundation

/// The bulk-in pipe as a byte stream made of transfers. Every transfer asks for a whole number of packets
/// (so a device never overflows it) and remembers whether it ended with a short packet, which is how USB
/// marks the end of a container. Bytes a transfer brought beyond the container being read wait here for
/// the next one.
final class BulkInStream {
    let pipe: USBPipe
    let packetSize: Int
    /// The largest transfer: a whole number of packets.
    let chunkSize: Int
    private let storage: UnsafeMutableRawBufferPointer
    private var start = 0
    private var end = 0
    /// True when the transfer that brought the buffered bytes ended with a short (or zero-length) packet.
    private(set) var lastTransferShort = true

    init(pipe: USBPipe, chunkSize: Int) {
        self.pipe = pipe
        packetSize = max(pipe.bulkInPacketSize, 1)
        self.chunkSize = max(packetSize, chunkSize / packetSize * packetSize)
        storage = .allocate(byteCount: self.chunkSize + 2 * packetSize, alignment: 16)
    }

    deinit { storage.deallocate() }

    var available: Int { end - start }

    /// The buffered bytes, without consuming them.
    var buffered: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: storage[start..<end]) }

    /// One transfer of about `want` bytes (rounded up to whole packets, at most `chunkSize`), appended to
    /// the buffered bytes. Returns how many arrived (0: a zero-length packet).
    @discardableResult
    func fill(want: Int, timeout: TimeInterval) throws -> Int {
        if start > 0 {
            if available > 0 { storage.baseAddress!.copyMemory(from: storage.baseAddress! + start, byteCount: available) }
            end = available
            start = 0
        }
        let room = (storage.count - end) / packetSize * packetSize
        let rounded = (max(want, 1) + packetSize - 1) / packetSize * packetSize
        let count = max(min(rounded, chunkSize, room), packetSize)
        let got = try pipe.bulkIn(into: UnsafeMutableRawBufferPointer(rebasing: storage[end..<end + count]), timeout: timeout)
        end += got
        lastTransferShort = got < count
        return got
    }

    /// Consumes up to `count` buffered bytes and hands them to `body`.
    func consume<R>(_ count: Int, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        let n = min(count, available)
        defer { start += n }
        return try body(UnsafeRawBufferPointer(rebasing: storage[start..<start + n]))
    }

    func discardBuffered() {
        start = 0
        end = 0
    }
}
