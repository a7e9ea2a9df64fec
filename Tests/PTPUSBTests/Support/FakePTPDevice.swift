import Foundation
import POSIX
import PTP

@testable import PTPUSB

/// A scripted PTP responder on an in-memory pipe: it joins the host's packets into containers (checking
/// the zero-length packets that must end exact-multiple containers), hands each command (with its data
/// phase, for operations that have one) to `script`, and performs what the script answers.
final class FakePTPDevice: @unchecked Sendable {
    enum Action {
        /// A data container with this payload, then (separately) whatever follows.
        case data([UInt8], zeroLengthPacket: Bool = true)
        case response(ResponseCode, [UInt32] = [])
        /// Bytes exactly as given, split into packets.
        case raw([UInt8], zeroLengthPacket: Bool = true)
        case packets([[UInt8]])
        case stall(USBEndpointRole)
        /// Performed when the host clears the halt on bulk-in.
        case afterClearHalt([Action])
        /// Pulls the cable once the host has read what was sent before.
        case unplug
    }

    struct Received {
        var command: PTPCommand
        var data: [UInt8]?
    }

    let pipe: InMemoryUSBPipe
    private let lock = NSLock()
    var script: (Received) -> [Action] = { _ in [.response(.ok)] }
    /// Operations whose command is followed by a data phase from the host.
    var dataOutOperations: Set<OperationCode> = [.sendObjectInfo, .sendObject]
    /// What Get Device Status answers; nil refuses the request (stalls the control pipe, as QEMU does).
    var status: USBDeviceStatus? = USBDeviceStatus(code: .ok)

    /// How long a transaction that another program left in flight keeps the device stuck.
    enum Stuck { case untilCancel, untilReset, forever }
    /// While set, every command's packet is refused with a stall, as QEMU's responder does while a
    /// transaction is "inflight"; a Cancel or a port reset ends it as the case says.
    var stuck: Stuck? {
        get { lock.withLock { _stuck } }
        set { lock.withLock { _stuck = newValue } }
    }
    private var _stuck: Stuck?

    private var assembling: [UInt8] = []
    private var expectingZeroLengthPacket = false
    private var pendingCommand: PTPCommand?
    private var pendingAfterClearHalt: [Action] = []
    private(set) var received: [Received] = []
    private(set) var zeroLengthPacketsSeen = 0
    /// Problems in what the host sent: a missing zero-length packet, a short packet mid-container, ...
    private(set) var hostErrors: [String] = []
    private(set) var cancelledTransactions: [UInt32] = []
    private(set) var resets = 0
    /// How many Get Device Status requests the host sent.
    var statusRequestCount: Int { lock.withLock { statusRequests } }
    private var statusRequests = 0

    init(packetSize: Int = 512, interruptPacketSize: Int = 8) {
        pipe = InMemoryUSBPipe(packetSize: packetSize, interruptPacketSize: interruptPacketSize)
        pipe.onPacket = { [unowned self] in self.packet($0) }
        pipe.onClassOut = { [unowned self] request, data in
            switch request {
            case StillImageRequest.cancel:
                guard data.count >= 6, data[0] == 0x01, data[1] == 0x40 else { throw LibUSBError.pipe }
                let id = USBContainer.parameters(data[2..<6])[0]
                lock.withLock {
                    cancelledTransactions.append(id)
                    pendingCommand = nil
                    assembling = []
                    if _stuck == .untilCancel { _stuck = nil }
                }
                pipe.deviceFlushIn()
            case StillImageRequest.deviceReset:
                lock.withLock { resets += 1 }
                pipe.deviceFlushIn()
            default:
                throw LibUSBError.pipe
            }
        }
        pipe.onClassIn = { [unowned self] request in
            if request == StillImageRequest.getDeviceStatus { lock.withLock { statusRequests += 1 } }
            guard request == StillImageRequest.getDeviceStatus, let status = lock.withLock({ self.status }) else {
                throw LibUSBError.pipe
            }
            return USBDeviceStatus.encode(status)
        }
        pipe.refusesPacket = { [unowned self] packet in
            // A command container's first packet: type 1 at bytes 4 and 5.
            lock.withLock { _stuck != nil && assembling.isEmpty && packet.count >= 12 && packet[4] == 1 && packet[5] == 0 }
        }
        pipe.onPortReset = { [unowned self] in
            lock.withLock {
                if _stuck == .untilReset || _stuck == .untilCancel { _stuck = nil }
                pendingCommand = nil
                assembling = []
                expectingZeroLengthPacket = false
            }
        }
        pipe.onClearHalt = { [unowned self] endpoint in
            guard endpoint == .bulkIn else { return }
            let actions = lock.withLock {
                defer { pendingAfterClearHalt = [] }
                return pendingAfterClearHalt
            }
            perform(actions)
        }
    }

    /// A transport over this device. The open recovery is off unless asked for: the framing tests make the
    /// first transaction fail on purpose and check what one transaction does.
    func transport(
        timeouts: USBTimeouts = USBTimeouts(transfer: 1, control: 0.5, recovery: 0.5), chunkSize: Int = 4096,
        transfersInFlight: Int = USBBulkTuning.transfersInFlight, drainLimit: UInt64 = 1 << 20,
        recoversFirstCommand: Bool = false, clock: any WaitClock = MonotonicClock()
    ) -> USBTransport {
        USBTransport(
            pipe: pipe, timeouts: timeouts, chunkSize: chunkSize, transfersInFlight: transfersInFlight,
            drainLimit: drainLimit,
            recoversFirstCommand: recoversFirstCommand, clock: clock)
    }

    /// Sends an event container on the interrupt pipe.
    func sendEvent(_ code: EventCode, parameters: [UInt32]) {
        var bytes: [UInt8] = []
        USBContainerHeader(
            length: UInt32(12 + 4 * parameters.count), kind: .event, code: code.rawValue, transactionID: 0xFFFF_FFFF
        ).encode(into: &bytes)
        var w = PTPWriter()
        for p in parameters { w.uint32(p) }
        pipe.deviceSendEvent(bytes + w.bytes)
    }

    // MARK: Joining packets

    private func packet(_ packet: [UInt8]) {
        var complete: [UInt8]?
        lock.withLock {
            if expectingZeroLengthPacket {
                expectingZeroLengthPacket = false
                if packet.isEmpty {
                    zeroLengthPacketsSeen += 1
                    return
                }
                hostErrors.append("no zero-length packet after an exact-multiple container")
            }
            if packet.isEmpty {
                hostErrors.append("unexpected zero-length packet")
                return
            }
            assembling += packet
            guard assembling.count >= 12 else {
                if packet.count < pipe.bulkOutPacketSize { hostErrors.append("short packet inside a container header") }
                return
            }
            let length = Int(USBContainer.parameters(assembling[0..<4])[0])
            if assembling.count < length {
                if packet.count < pipe.bulkOutPacketSize { hostErrors.append("short packet inside a container") }
                return
            }
            if assembling.count > length { hostErrors.append("two containers in one packet") }
            complete = Array(assembling[0..<length])
            assembling = []
            if length % pipe.bulkOutPacketSize == 0 { expectingZeroLengthPacket = true }
        }
        if let complete { container(complete) }
    }

    private func container(_ bytes: [UInt8]) {
        let header = bytes.withUnsafeBytes { try! USBContainerHeader(decoding: $0) }
        switch header.kind {
        case .command:
            let command = PTPCommand(
                OperationCode(header.code), transactionID: header.transactionID,
                parameters: USBContainer.parameters(bytes[12...]))
            if dataOutOperations.contains(command.code) {
                lock.withLock { pendingCommand = command }
            } else {
                run(Received(command: command, data: nil))
            }
        case .data:
            guard let command = lock.withLock({ pendingCommand }) else {
                lock.withLock { hostErrors.append("data without a command") }
                return
            }
            lock.withLock { pendingCommand = nil }
            run(Received(command: command, data: Array(bytes[12...])))
        default:
            lock.withLock { hostErrors.append("host sent a \(header.kind) container") }
        }
    }

    private func run(_ request: Received) {
        lock.withLock { received.append(request) }
        func resolve(_ action: Action) -> Action {
            switch action {
            case .data(let payload, let zlp):
                return .raw(
                    USBContainer.dataHeader(
                        code: request.command.code.rawValue, transactionID: request.command.transactionID,
                        payload: UInt64(payload.count)) + payload, zeroLengthPacket: zlp)
            case .response(let code, let parameters):
                return .raw(Self.response(code, transactionID: request.command.transactionID, parameters: parameters))
            case .afterClearHalt(let later):
                return .afterClearHalt(later.map(resolve))
            default:
                return action
            }
        }
        // Data and response actions get the transaction's id and operation.
        let actions = script(request).map(resolve)
        perform(actions)
    }

    static func response(_ code: ResponseCode, transactionID: UInt32, parameters: [UInt32] = []) -> [UInt8] {
        var bytes: [UInt8] = []
        USBContainerHeader(
            length: UInt32(12 + 4 * parameters.count), kind: .response, code: code.rawValue,
            transactionID: transactionID
        ).encode(into: &bytes)
        var w = PTPWriter()
        for p in parameters { w.uint32(p) }
        return bytes + w.bytes
    }

    private func perform(_ actions: [Action]) {
        for (index, action) in actions.enumerated() {
            switch action {
            case .raw(let bytes, let zlp): pipe.deviceSend(bytes, zeroLengthPacket: zlp)
            case .packets(let packets): pipe.deviceSendPackets(packets)
            case .stall(let endpoint): pipe.stall(endpoint)
            case .afterClearHalt(let later): lock.withLock { pendingAfterClearHalt = later }
            case .unplug: pipe.unplug(afterQueued: true)
            case .data, .response:
                lock.withLock { hostErrors.append("unresolved action \(index)") }
            }
        }
    }
}
