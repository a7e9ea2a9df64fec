import Foundation

/// The bulk-in pipe as a byte stream made of transfers. Every transfer asks for a whole number of packets
/// (so a device never overflows it) and remembers whether it ended with a short packet, which is how USB
/// marks the end of a container. Bytes a transfer brought beyond the container being read wait here for
/// the next one.
///
/// During a data phase (`readAhead`) up to `transfersInFlight` transfers are queued on the bus at once, each
/// into a buffer of its own, so the device never waits for the host to come back between two; the bytes
/// are read in place from the buffer of the transfer that brought them. Queued transfers stay within the
/// bytes the container declared; a data phase that ends early (a short transfer) leaves the ones behind it
/// to bring the response, read in order as any other bytes. `endTransaction` cancels and reaps whatever is
/// still queued, so no transfer outlives its transaction.
final class BulkInStream {
    let pipe: USBPipe
    let packetSize: Int
    /// The largest transfer: a whole number of packets.
    let chunkSize: Int
    /// How many transfers a data phase keeps queued at most; 1 reads one transfer at a time.
    let transfersInFlight: Int
    /// Where a transfer made one at a time lands, and where leftover bytes are joined with the next transfer.
    private let storage: UnsafeMutableRawBufferPointer
    /// The buffer the buffered bytes are in: `storage`, or a queued transfer's own.
    private var current: UnsafeMutableRawBufferPointer
    /// The queued transfer buffer `current` is, if any (free again once its bytes are consumed).
    private var currentSlot: Int?
    private var start = 0
    private var end = 0
    /// True when the transfer that brought the buffered bytes ended with a short (or zero-length) packet.
    private(set) var lastTransferShort = true
    /// The queued transfers' buffers, each `chunkSize`, allocated on the first read-ahead.
    private var slots: [UnsafeMutableRawBufferPointer] = []
    private var freeSlots: [Int] = []
    /// Submitted, not yet reaped: oldest first.
    private var queued: [(transfer: USBQueuedTransfer, slot: Int, size: Int)] = []
    /// Bytes of the current container not yet asked for by a queued transfer.
    private var ahead: UInt64 = 0
    /// Whether more transfers may be queued: `ahead` bytes, or every transfer until a short one (nil length).
    private var readingAhead: (bounded: Bool, active: Bool) = (true, false)

    init(pipe: USBPipe, chunkSize: Int, transfersInFlight: Int = 1) {
        self.pipe = pipe
        packetSize = max(pipe.bulkInPacketSize, 1)
        self.chunkSize = max(packetSize, chunkSize / packetSize * packetSize)
        self.transfersInFlight = max(transfersInFlight, 1)
        // Room for a transfer after the few bytes of a container header that the last one left.
        storage = .allocate(byteCount: self.chunkSize + max(2 * packetSize, 64), alignment: 16)
        current = storage
    }

    deinit {
        cancelQueued()
        storage.deallocate()
        for slot in slots { slot.deallocate() }
    }

    var available: Int { end - start }

    /// The buffered bytes, without consuming them.
    var buffered: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: current[start..<end]) }

    /// How many transfers are on the bus now (for tests: none once a transaction ended).
    var queuedTransfers: Int { queued.count }

    /// Declares that the container being read still has `remaining` bytes after the buffered ones (nil:
    /// unknown, up to a short packet), and queues transfers for them when more than one may be in flight.
    /// Only after a transfer that was not short: a short one already ended the container.
    func readAhead(remaining: UInt64?) {
        guard transfersInFlight > 1, !lastTransferShort else { return }
        if slots.isEmpty {
            slots = (0..<transfersInFlight).map { _ in .allocate(byteCount: chunkSize, alignment: 16) }
            freeSlots = Array(slots.indices)
        }
        ahead = remaining ?? 0
        readingAhead = (remaining != nil, remaining == nil || remaining! > 0)
        topUp()
    }

    /// Queues transfers into the free buffers while the container has bytes not yet asked for. A failure to
    /// submit is left for the next `fill` to meet, one transfer at a time.
    private func topUp() {
        while readingAhead.active, let slot = freeSlots.last {
            let size: Int
            if readingAhead.bounded {
                let rounded = (ahead + UInt64(packetSize) - 1) / UInt64(packetSize) * UInt64(packetSize)
                size = Int(min(rounded, UInt64(chunkSize)))
            } else {
                size = chunkSize
            }
            guard size > 0,
                let transfer = try? pipe.submitBulkIn(into: UnsafeMutableRawBufferPointer(rebasing: slots[slot][0..<size]))
            else {
                readingAhead.active = false
                return
            }
            freeSlots.removeLast()
            queued.append((transfer, slot, size))
            if readingAhead.bounded {
                ahead -= min(ahead, UInt64(size))
                if ahead == 0 { readingAhead.active = false }
            }
        }
    }

    /// The next transfer's bytes appended to the buffered ones: the oldest queued transfer's, or one transfer
    /// of about `want` bytes (rounded up to whole packets, at most `chunkSize`) when none is queued. Returns
    /// how many arrived (0: a zero-length packet).
    @discardableResult
    func fill(want: Int, timeout: TimeInterval) throws -> Int {
        releaseConsumedSlot()
        topUp()
        if queued.isEmpty { return try fillOne(want: want, timeout: timeout) }
        let head = queued.removeFirst()
        let got: Int
        do {
            got = try pipe.reapBulkIn(head.transfer, timeout: timeout)
        } catch {
            freeSlots.append(head.slot)
            // The transfers behind a failed one are in an unknown state: end them; go on one at a time.
            readingAhead.active = false
            cancelQueued()
            throw error
        }
        let bytes = UnsafeMutableRawBufferPointer(rebasing: slots[head.slot][0..<got])
        if available == 0 {
            // Read in place: no copy.
            current = slots[head.slot]
            currentSlot = head.slot
            start = 0
            end = got
        } else {
            // A few bytes of a header before it (never more than a response's 32): join them in `storage`.
            compactIntoStorage()
            guard end + got <= storage.count else {
                freeSlots.append(head.slot)
                throw LibUSBError.overflow
            }
            (storage.baseAddress! + end).copyMemory(from: bytes.baseAddress!, byteCount: got)
            end += got
            freeSlots.append(head.slot)
        }
        lastTransferShort = got < head.size
        if lastTransferShort { readingAhead.active = false }
        return got
    }

    /// One transfer made and reaped at once, into `storage`.
    private func fillOne(want: Int, timeout: TimeInterval) throws -> Int {
        compactIntoStorage()
        let room = (storage.count - end) / packetSize * packetSize
        let rounded = (max(want, 1) + packetSize - 1) / packetSize * packetSize
        let count = max(min(rounded, chunkSize, room), packetSize)
        let got = try pipe.bulkIn(into: UnsafeMutableRawBufferPointer(rebasing: storage[end..<end + count]), timeout: timeout)
        end += got
        lastTransferShort = got < count
        return got
    }

    /// Moves the buffered bytes to the front of `storage`.
    private func compactIntoStorage() {
        let count = available
        if count > 0, current.baseAddress != storage.baseAddress || start > 0 {
            storage.baseAddress!.copyMemory(from: current.baseAddress! + start, byteCount: count)
        }
        if let slot = currentSlot { freeSlots.append(slot) }
        currentSlot = nil
        current = storage
        start = 0
        end = count
    }

    /// A queued transfer's buffer whose bytes were all consumed goes back to the free ones.
    private func releaseConsumedSlot() {
        guard available == 0, let slot = currentSlot else { return }
        freeSlots.append(slot)
        currentSlot = nil
        current = storage
        start = 0
        end = 0
    }

    /// Consumes up to `count` buffered bytes and hands them to `body`.
    func consume<R>(_ count: Int, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        let n = min(count, available)
        defer { start += n }
        return try body(UnsafeRawBufferPointer(rebasing: current[start..<start + n]))
    }

    /// The transaction is over: nothing more is read ahead, and the transfers still queued are cancelled
    /// and reaped. The buffered bytes stay. What a cancelled transfer had received is dropped: nothing of
    /// the transaction can be in it (its response was read, or it failed and the pipe gets drained).
    func endTransaction() {
        readingAhead.active = false
        ahead = 0
        cancelQueued()
    }

    private func cancelQueued() {
        for entry in queued { pipe.cancelBulkIn(entry.transfer) }
        for entry in queued {
            // Bounded by the bus: a cancelled transfer ends at once (or with the device gone).
            _ = try? pipe.reapBulkIn(entry.transfer, timeout: 1)
            freeSlots.append(entry.slot)
        }
        queued.removeAll()
    }

    func discardBuffered() {
        endTransaction()
        releaseConsumedSlot()
        current = storage
        if let slot = currentSlot { freeSlots.append(slot) }
        currentSlot = nil
        start = 0
        end = 0
    }
}
