import Foundation
import PTP

@testable import PTPUSB

/// A USB interface in memory that behaves like a bus: the device's bytes travel as packets of at most the
/// endpoint's size, a host transfer ends at a short (or zero-length) packet or when its buffer is full, a
/// packet larger than the room left is an overflow, a stalled endpoint fails every transfer until
/// clear-halt, and an unplugged device fails everything with LIBUSB_ERROR_NO_DEVICE. Queued bulk-in
/// transfers (`submitBulkIn`) take the device's packets as they come, in order, before the host reaps them.
final class InMemoryUSBPipe: USBPipe, @unchecked Sendable {
    let bulkInPacketSize: Int
    let bulkOutPacketSize: Int
    let interruptPacketSize: Int
    let hasInterruptIn: Bool

    private let condition = NSCondition()
    private var inPackets: [[UInt8]] = []
    private var interruptPackets: [[UInt8]] = []
    private var stalled: Set<USBEndpointRole> = []
    private var unplugged = false
    /// Unplug once the host has read what is queued (the cable pulled mid-transfer).
    private var unplugWhenDrained = false
    private var closed = false
    /// Set by `interruptTransfers`: every transfer fails with LIBUSB_ERROR_INTERRUPTED.
    private var interrupted = false
    private var _outPackets: [[UInt8]] = []
    private var _inTransferSizes: [Int] = []
    private var _clearedHalts: [USBEndpointRole] = []
    /// Submitted bulk-in transfers not yet reaped, oldest first.
    private var queued: [QueuedIn] = []
    private var _submitted = 0
    private var _cancelled = 0

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
    private var _portResets = 0

    init(packetSize: Int = 512, interruptPacketSize: Int = 8, hasInterruptIn: Bool = true) {
        bulkInPacketSize = packetSize
        bulkOutPacketSize = packetSize
        self.interruptPacketSize = interruptPacketSize
        self.hasInterruptIn = hasInterruptIn
    }

    // MARK: What the host did

    var outPackets: [[UInt8]] { condition.withLock { _outPackets } }
    /// The size of every bulk-in transfer the host asked for.
    var inTransferSizes: [Int] { condition.withLock { _inTransferSizes } }
    var clearedHalts: [USBEndpointRole] { condition.withLock { _clearedHalts } }
    var isClosed: Bool { condition.withLock { closed } }
    var queuedInPackets: Int { condition.withLock { inPackets.count } }
    var portResets: Int { condition.withLock { _portResets } }
    /// Queued bulk-in transfers submitted, ever.
    var submittedTransfers: Int { condition.withLock { _submitted } }
    /// Queued bulk-in transfers the host cancelled, ever.
    var cancelledTransfers: Int { condition.withLock { _cancelled } }
    /// Queued bulk-in transfers submitted and not yet reaped (0 once a transaction ended).
    var transfersOnTheBus: Int { condition.withLock { queued.count } }
    /// The most queued bulk-in transfers at once.
    var mostTransfersOnTheBus: Int { condition.withLock { _most } }
    private var _most = 0

    // MARK: Host side

    private func checkUsable(_ role: USBEndpointRole) throws {
        if unplugged || closed { throw LibUSBError.noDevice }
        if interrupted { throw LibUSBError.interrupted }
        if stalled.contains(role) { throw LibUSBError.pipe }
    }

    func bulkOut(_ bytes: UnsafeRawBufferPointer, timeout: TimeInterval) throws {
        var packets: [[UInt8]] = []
        try condition.withLock {
            try checkUsable(.bulkOut)
            if bytes.isEmpty {
                packets = [[]]
            } else {
                var offset = 0
                while offset < bytes.count {
                    let n = min(bulkOutPacketSize, bytes.count - offset)
                    packets.append(Array(bytes[offset..<offset + n]))
                    offset += n
                }
            }
            _outPackets += packets
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
        // Safe because every field is read and written under the pipe's condition lock.
        let buffer: UnsafeMutableRawBufferPointer
        var filled = 0
        var ended: Result<Int, LibUSBError>?
        var reaped = false
        init(_ buffer: UnsafeMutableRawBufferPointer) { self.buffer = buffer }
    }

    func submitBulkIn(into buffer: UnsafeMutableRawBufferPointer) throws -> USBQueuedTransfer {
        try condition.withLock {
            try checkUsable(.bulkIn)
            let transfer = QueuedIn(buffer)
            queued.append(transfer)
            _submitted += 1
            _most = max(_most, queued.count)
            _inTransferSizes.append(buffer.count)
            deliverQueued()
            return transfer
        }
    }

    func cancelBulkIn(_ transfer: USBQueuedTransfer) {
        condition.withLock {
            guard let transfer = transfer as? QueuedIn, transfer.ended == nil, !transfer.reaped else { return }
            transfer.ended = .failure(.io)
            _cancelled += 1
            condition.broadcast()
        }
    }

    func reapBulkIn(_ transfer: USBQueuedTransfer, timeout: TimeInterval) throws -> Int {
        guard let transfer = transfer as? QueuedIn else { throw LibUSBError.invalidParameter }
        condition.lock()
        defer { condition.unlock() }
        guard !transfer.reaped, transfer === queued.first else { throw LibUSBError.invalidParameter }
        let deadline = Date(timeIntervalSinceNow: timeout)
        while transfer.ended == nil {
            if unplugged || closed {
                transfer.ended = .failure(.noDevice)
            } else if interrupted {
                transfer.ended = .failure(.interrupted)
            } else if stalled.contains(.bulkIn) {
                transfer.ended = .failure(.pipe)
            } else if inPackets.isEmpty, unplugWhenDrained {
                unplugged = true
            } else {
                deliverQueued()
                if transfer.ended == nil, !condition.wait(until: deadline) {
                    transfer.ended = transfer.filled > 0 ? .success(transfer.filled) : .failure(.timeout)
                }
            }
        }
        transfer.reaped = true
        queued.removeFirst()
        return try transfer.ended!.get()
    }

    /// The bus at work: the device's packets go into the queued transfers in order, each ending at a short
    /// packet or when full; a packet larger than the room left ends one with an overflow. Under the lock.
    private func deliverQueued() {
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
                if packet.count < bulkInPacketSize || transfer.filled == transfer.buffer.count {
                    transfer.ended = .success(transfer.filled)
                }
            }
            if transfer.ended == nil { return }
        }
        condition.broadcast()
    }

    func interruptIn(into buffer: UnsafeMutableRawBufferPointer, timeout: TimeInterval) throws -> Int {
        try receive(into: buffer, timeout: timeout, interrupt: true)
    }

    private func receive(into buffer: UnsafeMutableRawBufferPointer, timeout: TimeInterval, interrupt: Bool) throws -> Int {
        condition.lock()
        defer { condition.unlock() }
        if !interrupt { _inTransferSizes.append(buffer.count) }
        let packetSize = interrupt ? interruptPacketSize : bulkInPacketSize
        let deadline = Date(timeIntervalSinceNow: timeout)
        var filled = 0
        while true {
            try checkUsable(interrupt ? .interruptIn : .bulkIn)
            if !interrupt, inPackets.isEmpty, unplugWhenDrained {
                unplugged = true
                throw LibUSBError.noDevice
            }
            if interrupt ? !interruptPackets.isEmpty : !inPackets.isEmpty {
                let packet = interrupt ? interruptPackets.removeFirst() : inPackets.removeFirst()
                guard packet.count <= buffer.count - filled else { throw LibUSBError.overflow }
                packet.withUnsafeBytes { (buffer.baseAddress! + filled).copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
                filled += packet.count
                if packet.count < packetSize || filled == buffer.count { return filled }
                continue
            }
            if !condition.wait(until: deadline) {
                // libusb: an interrupt read hands over what came; a bulk read that timed out failed.
                if interrupt, filled > 0 { return filled }
                throw LibUSBError.timeout
            }
        }
    }

    func classRequestOut(_ request: UInt8, value: UInt16, data: [UInt8], timeout: TimeInterval) throws {
        try condition.withLock { if unplugged || closed { throw LibUSBError.noDevice } }
        guard let onClassOut else { throw LibUSBError.pipe }
        try onClassOut(request, data)
    }

    func classRequestIn(_ request: UInt8, value: UInt16, length: Int, timeout: TimeInterval) throws -> [UInt8] {
        try condition.withLock { if unplugged || closed { throw LibUSBError.noDevice } }
        guard let onClassIn else { throw LibUSBError.pipe }
        return Array(try onClassIn(request).prefix(length))
    }

    func clearHalt(_ endpoint: USBEndpointRole) throws {
        try condition.withLock {
            if unplugged || closed { throw LibUSBError.noDevice }
            stalled.remove(endpoint)
            _clearedHalts.append(endpoint)
        }
        onClearHalt?(endpoint)
    }

    func resetPort() throws {
        try condition.withLock {
            if unplugged || closed { throw LibUSBError.noDevice }
            stalled.removeAll()
            inPackets.removeAll()
            _portResets += 1
        }
        onPortReset?()
    }

    func interruptTransfers() {
        condition.withLock {
            interrupted = true
            condition.broadcast()
        }
    }

    func close() {
        condition.withLock {
            closed = true
            condition.broadcast()
        }
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
        condition.withLock {
            inPackets += packets
            deliverQueued()
            condition.broadcast()
        }
    }

    func deviceSendEvent(_ bytes: [UInt8]) {
        condition.withLock {
            var offset = 0
            while offset < bytes.count {
                let n = min(interruptPacketSize, bytes.count - offset)
                interruptPackets.append(Array(bytes[offset..<offset + n]))
                offset += n
            }
            if bytes.count % interruptPacketSize == 0 { interruptPackets.append([]) }
            condition.broadcast()
        }
    }

    /// Drops what the device had queued for the host (as after a Cancel).
    func deviceFlushIn() { condition.withLock { inPackets.removeAll() } }

    func stall(_ endpoint: USBEndpointRole) {
        condition.withLock {
            stalled.insert(endpoint)
            condition.broadcast()
        }
    }

    /// Pulls the cable: at once, or once the host has read the packets already queued.
    func unplug(afterQueued: Bool = false) {
        condition.withLock {
            if afterQueued { unplugWhenDrained = true } else { unplugged = true }
            condition.broadcast()
        }
    }
}
