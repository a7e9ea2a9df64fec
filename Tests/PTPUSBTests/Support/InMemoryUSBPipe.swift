import Foundation
import POSIX
import PTP

@testable import PTPUSB

/// A USB interface in memory that behaves like a bus: the device's bytes travel as packets of at most the
/// endpoint's size, a host transfer ends at a short (or zero-length) packet or when its buffer is full, a
/// packet larger than the room left is an overflow, a stalled endpoint fails every transfer until
/// clear-halt, and an unplugged device fails everything with LIBUSB_ERROR_NO_DEVICE. Queued bulk-in
/// transfers (`submitBulkIn`) take the device's packets as they come, in order, before the host reaps them.
final class InMemoryUSBPipe: USBPipe, @unchecked Sendable {
    // Unchecked because of the device side's callbacks below, set once before the host uses the pipe; the
    // bus itself is in `bus`.
    let bulkInPacketSize: Int
    let bulkOutPacketSize: Int
    let interruptPacketSize: Int
    let hasInterruptIn: Bool

    /// What travels on the bus and what the host did, behind one lock; every change wakes the transfers
    /// waiting on it.
    private struct Bus {
        var inPackets: [[UInt8]] = []
        var interruptPackets: [[UInt8]] = []
        var stalled: Set<USBEndpointRole> = []
        var unplugged = false
        /// Unplug once the host has read what is queued (the cable pulled mid-transfer).
        var unplugWhenDrained = false
        var closed = false
        /// Set by `interruptTransfers`: every transfer fails with LIBUSB_ERROR_INTERRUPTED.
        var interrupted = false
        var outPackets: [[UInt8]] = []
        var inTransferSizes: [Int] = []
        var clearedHalts: [USBEndpointRole] = []
        /// Submitted bulk-in transfers not yet reaped, oldest first.
        var queued: [QueuedIn] = []
        var submitted = 0
        var cancelled = 0
        var most = 0
        var portResets = 0

        /// Why a transfer on `role` fails now, if it does.
        func unusable(_ role: USBEndpointRole) -> LibUSBError? {
            if unplugged || closed { return .noDevice }
            if interrupted { return .interrupted }
            if stalled.contains(role) { return .pipe }
            return nil
        }

        /// The bus at work: the device's packets go into the queued transfers in order, each ending at a
        /// short packet or when full; a packet larger than the room left ends one with an overflow.
        mutating func deliverQueued(packetSize: Int) {
            for transfer in queued where transfer.ended == nil {
                while transfer.ended == nil, !inPackets.isEmpty, !stalled.contains(.bulkIn), !interrupted {
                    let packet = inPackets.removeFirst()
                    let room = transfer.buffer.count - transfer.filled
                    guard packet.count <= room else {
                        transfer.ended = .failure(.overflow)
                        break
                    }
                    packet.withUnsafeBytes {
                        if let base = $0.baseAddress {
                            (transfer.buffer.baseAddress! + transfer.filled).copyMemory(from: base, byteCount: $0.count)
                        }
                    }
                    transfer.filled += packet.count
                    if packet.count < packetSize || transfer.filled == transfer.buffer.count {
                        transfer.ended = .success(transfer.filled)
                    }
                }
                if transfer.ended == nil { return }
            }
        }
    }

    private let bus = LockedCondition(Bus())

    /// The device side: each bulk-out packet as it arrives (called on the host's thread).
    var onPacket: (([UInt8]) -> Void)?
    /// The device side: class requests. Throwing `LibUSBError.pipe` refuses one as a real device does.
    var onClassOut: ((UInt8, [UInt8]) throws -> Void)?
    var onClassIn: ((UInt8) throws -> [UInt8])?
    var onClearHalt: ((USBEndpointRole) -> Void)?
    /// The device side: a bulk-out packet it refuses by stalling the endpoint (QEMU does this to a command
    /// while another transaction is in flight). The host's transfer fails with LIBUSB_ERROR_PIPE.
    var refusesPacket: (([UInt8]) -> Bool)?
    /// The device side: a USB port reset, after the bus has dropped its queued packets and stalls.
    var onPortReset: (() -> Void)?

    init(packetSize: Int = 512, interruptPacketSize: Int = 8, hasInterruptIn: Bool = true) {
        bulkInPacketSize = packetSize
        bulkOutPacketSize = packetSize
        self.interruptPacketSize = interruptPacketSize
        self.hasInterruptIn = hasInterruptIn
    }

    // MARK: What the host did

    var outPackets: [[UInt8]] { bus.withLock { $0.outPackets } }
    /// The size of every bulk-in transfer the host asked for.
    var inTransferSizes: [Int] { bus.withLock { $0.inTransferSizes } }
    var clearedHalts: [USBEndpointRole] { bus.withLock { $0.clearedHalts } }
    var isClosed: Bool { bus.withLock { $0.closed } }
    var queuedInPackets: Int { bus.withLock { $0.inPackets.count } }
    var portResets: Int { bus.withLock { $0.portResets } }
    /// Queued bulk-in transfers submitted, ever.
    var submittedTransfers: Int { bus.withLock { $0.submitted } }
    /// Queued bulk-in transfers the host cancelled, ever.
    var cancelledTransfers: Int { bus.withLock { $0.cancelled } }
    /// Queued bulk-in transfers submitted and not yet reaped (0 once a transaction ended).
    var transfersOnTheBus: Int { bus.withLock { $0.queued.count } }
    /// The most queued bulk-in transfers at once.
    var mostTransfersOnTheBus: Int { bus.withLock { $0.most } }

    // MARK: Host side

    func bulkOut(_ bytes: UnsafeRawBufferPointer, timeout: TimeInterval) throws {
        let packetSize = bulkOutPacketSize
        let packets = try bus.withLock { bus throws -> [[UInt8]] in
            if let error = bus.unusable(.bulkOut) { throw error }
            var packets: [[UInt8]] = []
            if bytes.isEmpty {
                packets = [[]]
            } else {
                var offset = 0
                while offset < bytes.count {
                    let n = min(packetSize, bytes.count - offset)
                    packets.append(Array(bytes[offset..<offset + n]))
                    offset += n
                }
            }
            bus.outPackets += packets
            return packets
        }
        for packet in packets {
            if refusesPacket?(packet) == true {
                stall(.bulkOut)
                throw LibUSBError.pipe
            }
            onPacket?(packet)
        }
    }

    func bulkIn(into buffer: UnsafeMutableRawBufferPointer, timeout: TimeInterval) throws -> Int {
        try receive(into: buffer, timeout: timeout, interrupt: false)
    }

    // MARK: Queued bulk-in transfers

    /// A transfer on the bus: its buffer, what it received, and how it ended once it did.
    final class QueuedIn: USBQueuedTransfer, @unchecked Sendable {
        // Safe because every field is read and written under the pipe's bus lock.
        let buffer: UnsafeMutableRawBufferPointer
        var filled = 0
        var ended: Result<Int, LibUSBError>?
        var reaped = false
        init(_ buffer: UnsafeMutableRawBufferPointer) { self.buffer = buffer }
    }

    func submitBulkIn(into buffer: UnsafeMutableRawBufferPointer) throws -> USBQueuedTransfer {
        let packetSize = bulkInPacketSize
        return try bus.change { bus throws -> QueuedIn in
            if let error = bus.unusable(.bulkIn) { throw error }
            let transfer = QueuedIn(buffer)
            bus.queued.append(transfer)
            bus.submitted += 1
            bus.most = max(bus.most, bus.queued.count)
            bus.inTransferSizes.append(buffer.count)
            bus.deliverQueued(packetSize: packetSize)
            return transfer
        }
    }

    func cancelBulkIn(_ transfer: USBQueuedTransfer) {
        bus.change { bus in
            guard let transfer = transfer as? QueuedIn, transfer.ended == nil, !transfer.reaped else { return }
            transfer.ended = .failure(.io)
            bus.cancelled += 1
        }
    }

    func reapBulkIn(_ transfer: USBQueuedTransfer, timeout: TimeInterval) throws -> Int {
        guard let transfer = transfer as? QueuedIn else { throw LibUSBError.invalidParameter }
        let packetSize = bulkInPacketSize
        let deadline = Deadline.after(timeout)
        try bus.withLock { bus throws in
            guard !transfer.reaped, transfer === bus.queued.first else { throw LibUSBError.invalidParameter }
        }
        while true {
            // Ready when it ended, or when something on the bus may end it.
            let ended = bus.wait(until: deadline, for: { bus in
                transfer.ended != nil || bus.unusable(.bulkIn) != nil || !bus.inPackets.isEmpty || bus.unplugWhenDrained
            }) { bus -> Bool in
                if transfer.ended != nil { return true }
                if let error = bus.unusable(.bulkIn) {
                    transfer.ended = .failure(error)
                } else if bus.inPackets.isEmpty, bus.unplugWhenDrained {
                    bus.unplugged = true
                    transfer.ended = .failure(.noDevice)
                } else {
                    bus.deliverQueued(packetSize: packetSize)
                }
                return transfer.ended != nil
            }
            if ended == true { break }
            if ended == nil {
                bus.withLock { _ in
                    if transfer.ended == nil { transfer.ended = transfer.filled > 0 ? .success(transfer.filled) : .failure(.timeout) }
                }
                break
            }
        }
        let result = bus.withLock { bus -> Result<Int, LibUSBError> in
            transfer.reaped = true
            bus.queued.removeFirst()
            return transfer.ended!
        }
        return try result.get()
    }

    func interruptIn(into buffer: UnsafeMutableRawBufferPointer, timeout: TimeInterval) throws -> Int {
        try receive(into: buffer, timeout: timeout, interrupt: true)
    }

    /// One step of a read: it ended with this many bytes, or wants the next packet, or failed.
    private enum Step { case done(Int), more, failed(LibUSBError) }

    private func receive(into buffer: UnsafeMutableRawBufferPointer, timeout: TimeInterval, interrupt: Bool) throws -> Int {
        let deadline = Deadline.after(timeout)
        let role: USBEndpointRole = interrupt ? .interruptIn : .bulkIn
        let packetSize = interrupt ? interruptPacketSize : bulkInPacketSize
        if !interrupt { bus.withLock { $0.inTransferSizes.append(buffer.count) } }
        var filled = 0
        while true {
            let step = bus.wait(until: deadline, for: { bus in
                bus.unusable(role) != nil || (interrupt ? !bus.interruptPackets.isEmpty : !bus.inPackets.isEmpty)
                    || (!interrupt && bus.unplugWhenDrained)
            }) { bus -> Step in
                if let error = bus.unusable(role) { return .failed(error) }
                if !interrupt, bus.inPackets.isEmpty, bus.unplugWhenDrained {
                    bus.unplugged = true
                    return .failed(.noDevice)
                }
                let packet = interrupt ? bus.interruptPackets.removeFirst() : bus.inPackets.removeFirst()
                guard packet.count <= buffer.count - filled else { return .failed(.overflow) }
                packet.withUnsafeBytes {
                    if let base = $0.baseAddress { (buffer.baseAddress! + filled).copyMemory(from: base, byteCount: $0.count) }
                }
                filled += packet.count
                return packet.count < packetSize || filled == buffer.count ? .done(filled) : .more
            }
            switch step {
            case .done(let count): return count
            case .more: continue
            case .failed(let error): throw error
            case nil:
                // libusb: an interrupt read hands over what came; a bulk read that timed out failed.
                if interrupt, filled > 0 { return filled }
                throw LibUSBError.timeout
            }
        }
    }

    func classRequestOut(_ request: UInt8, value: UInt16, data: [UInt8], timeout: TimeInterval) throws {
        try bus.withLock { bus throws in if bus.unplugged || bus.closed { throw LibUSBError.noDevice } }
        guard let onClassOut else { throw LibUSBError.pipe }
        try onClassOut(request, data)
    }

    func classRequestIn(_ request: UInt8, value: UInt16, length: Int, timeout: TimeInterval) throws -> [UInt8] {
        try bus.withLock { bus throws in if bus.unplugged || bus.closed { throw LibUSBError.noDevice } }
        guard let onClassIn else { throw LibUSBError.pipe }
        return Array(try onClassIn(request).prefix(length))
    }

    func clearHalt(_ endpoint: USBEndpointRole) throws {
        try bus.change { bus throws in
            if bus.unplugged || bus.closed { throw LibUSBError.noDevice }
            bus.stalled.remove(endpoint)
            bus.clearedHalts.append(endpoint)
        }
        onClearHalt?(endpoint)
    }

    func resetPort() throws {
        try bus.change { bus throws in
            if bus.unplugged || bus.closed { throw LibUSBError.noDevice }
            bus.stalled.removeAll()
            bus.inPackets.removeAll()
            bus.portResets += 1
        }
        onPortReset?()
    }

    func interruptTransfers() {
        bus.change { $0.interrupted = true }
    }

    func close() {
        bus.change { $0.closed = true }
    }

    // MARK: Device side

    /// Sends `bytes` as full packets and a final short one; a zero-length packet when they end exactly on
    /// a packet boundary (unless `zeroLengthPacket` is false, as QEMU's responder does).
    func deviceSend(_ bytes: [UInt8], zeroLengthPacket: Bool = true) {
        var packets: [[UInt8]] = []
        var offset = 0
        while offset < bytes.count {
            let n = min(bulkInPacketSize, bytes.count - offset)
            packets.append(Array(bytes[offset..<offset + n]))
            offset += n
        }
        if zeroLengthPacket, bytes.count % bulkInPacketSize == 0 { packets.append([]) }
        deviceSendPackets(packets)
    }

    func deviceSendPackets(_ packets: [[UInt8]]) {
        let packetSize = bulkInPacketSize
        bus.change { bus in
            bus.inPackets += packets
            bus.deliverQueued(packetSize: packetSize)
        }
    }

    func deviceSendEvent(_ bytes: [UInt8]) {
        let packetSize = interruptPacketSize
        bus.change { bus in
            var offset = 0
            while offset < bytes.count {
                let n = min(packetSize, bytes.count - offset)
                bus.interruptPackets.append(Array(bytes[offset..<offset + n]))
                offset += n
            }
            if bytes.count % packetSize == 0 { bus.interruptPackets.append([]) }
        }
    }

    /// Drops what the device had queued for the host (as after a Cancel).
    func deviceFlushIn() { bus.withLock { $0.inPackets.removeAll() } }

    func stall(_ endpoint: USBEndpointRole) {
        bus.change { _ = $0.stalled.insert(endpoint) }
    }

    /// Pulls the cable: at once, or once the host has read the packets already queued.
    func unplug(afterQueued: Bool = false) {
        bus.change { bus in
            if afterQueued { bus.unplugWhenDrained = true } else { bus.unplugged = true }
        }
    }
}
