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
    var script: (Received) -> [Action] = { _ in [.response(.ok)] }
    /// Operations whose command is followed by a data phase from the host.
    var dataOutOperations: Set<OperationCode> = [.sendObjectInfo, .sendObject]

    /// How long a transaction that another program left in flight keeps the device stuck.
    enum Stuck { case untilCancel, untilReset, forever }

    /// What the device side knows, touched by the host's thread (through the pipe's callbacks) and the test's.
    private struct State {
        var stuck: Stuck?
        var status: USBDeviceStatus? = USBDeviceStatus(code: .ok)
        var assembling: [UInt8] = []
        var expectingZeroLengthPacket = false
        var pendingCommand: PTPCommand?
        var pendingAfterClearHalt: [Action] = []
        var received: [Received] = []
        var zeroLengthPacketsSeen = 0
        var hostErrors: [String] = []
        var cancelledTransactions: [UInt32] = []
        var resets = 0
        var statusRequests = 0
    }

    private let state = Locked(State())

    /// What Get Device Status answers; nil refuses the request (stalls the control pipe, as QEMU does).
    var status: USBDeviceStatus? {
        get { state.withLock { $0.status } }
        set { state.withLock { $0.status = newValue } }
    }
    /// While set, every command's packet is refused with a stall, as QEMU's responder does while a
    /// transaction is "inflight"; a Cancel or a port reset ends it as the case says.
    var stuck: Stuck? {
        get { state.withLock { $0.stuck } }
        set { state.withLock { $0.stuck = newValue } }
    }
    var received: [Received] { state.withLock { $0.received } }
    var zeroLengthPacketsSeen: Int { state.withLock { $0.zeroLengthPacketsSeen } }
    /// Problems in what the host sent: a missing zero-length packet, a short packet mid-container, ...
    var hostErrors: [String] { state.withLock { $0.hostErrors } }
    var cancelledTransactions: [UInt32] { state.withLock { $0.cancelledTransactions } }
    var resets: Int { state.withLock { $0.resets } }
    /// How many Get Device Status requests the host sent.
    var statusRequestCount: Int { state.withLock { $0.statusRequests } }

    init(packetSize: Int = 512, interruptPacketSize: Int = 8) {
        pipe = InMemoryUSBPipe(packetSize: packetSize, interruptPacketSize: interruptPacketSize)
        pipe.onPacket = { [unowned self] in self.packet($0) }
        pipe.onClassOut = { [unowned self] request, data in
            switch request {
            case StillImageRequest.cancel:
                guard data.count >= 6, data[0] == 0x01, data[1] == 0x40 else { throw LibUSBError.pipe }
                let id = ContainerCodec.parameters(data[2..<6])[0]
                state.withLock { state in
                    state.cancelledTransactions.append(id)
                    state.pendingCommand = nil
                    state.assembling = []
                    if state.stuck == .untilCancel { state.stuck = nil }
                }
                pipe.deviceFlushIn()
            case StillImageRequest.deviceReset:
                state.withLock { $0.resets += 1 }
                pipe.deviceFlushIn()
            default:
                throw LibUSBError.pipe
            }
        }
        pipe.onClassIn = { [unowned self] request in
            guard request == StillImageRequest.getDeviceStatus else { throw LibUSBError.pipe }
            let status = state.withLock { state in
                state.statusRequests += 1
                return state.status
            }
            guard let status else { throw LibUSBError.pipe }
            return USBDeviceStatus.encode(status)
        }
        pipe.refusesPacket = { [unowned self] packet in
            // A command container's first packet: type 1 at bytes 4 and 5.
            state.withLock { $0.stuck != nil && $0.assembling.isEmpty && packet.count >= 12 && packet[4] == 1 && packet[5] == 0 }
        }
        pipe.onPortReset = { [unowned self] in
            state.withLock { state in
                if state.stuck == .untilReset || state.stuck == .untilCancel { state.stuck = nil }
                state.pendingCommand = nil
                state.assembling = []
                state.expectingZeroLengthPacket = false
            }
        }
        pipe.onClearHalt = { [unowned self] endpoint in
            guard endpoint == .bulkIn else { return }
            let actions = state.withLock { state in
                defer { state.pendingAfterClearHalt = [] }
                return state.pendingAfterClearHalt
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
        ContainerHeader(
            length: UInt32(12 + 4 * parameters.count), kind: .event, code: code.rawValue, transactionID: 0xFFFF_FFFF
        ).encode(into: &bytes)
        var w = PTPWriter()
        for p in parameters { w.uint32(p) }
        pipe.deviceSendEvent(bytes + w.bytes)
    }

    // MARK: Joining packets

    private func packet(_ packet: [UInt8]) {
        let packetSize = pipe.bulkOutPacketSize
        let complete: [UInt8]? = state.withLock { state in
            if state.expectingZeroLengthPacket {
                state.expectingZeroLengthPacket = false
                if packet.isEmpty {
                    state.zeroLengthPacketsSeen += 1
                    return nil
                }
                state.hostErrors.append("no zero-length packet after an exact-multiple container")
            }
            if packet.isEmpty {
                state.hostErrors.append("unexpected zero-length packet")
                return nil
            }
            state.assembling += packet
            guard state.assembling.count >= 12 else {
                if packet.count < packetSize { state.hostErrors.append("short packet inside a container header") }
                return nil
            }
            let length = Int(ContainerCodec.parameters(state.assembling[0..<4])[0])
            if state.assembling.count < length {
                if packet.count < packetSize { state.hostErrors.append("short packet inside a container") }
                return nil
            }
            if state.assembling.count > length { state.hostErrors.append("two containers in one packet") }
            let complete = Array(state.assembling[0..<length])
            state.assembling = []
            if length % packetSize == 0 { state.expectingZeroLengthPacket = true }
            return complete
        }
        if let complete { container(complete) }
    }

    private func container(_ bytes: [UInt8]) {
        let header = bytes.withUnsafeBytes { try! ContainerHeader(usb: $0) }
        switch header.kind {
        case .command:
            let command = PTPCommand(
                OperationCode(header.code), transactionID: header.transactionID,
                parameters: ContainerCodec.parameters(bytes[12...]))
            if dataOutOperations.contains(command.code) {
                state.withLock { $0.pendingCommand = command }
            } else {
                run(Received(command: command, data: nil))
            }
        case .data:
            let pending = state.withLock { state in
                defer { state.pendingCommand = nil }
                return state.pendingCommand
            }
            guard let command = pending else {
                state.withLock { $0.hostErrors.append("data without a command") }
                return
            }
            run(Received(command: command, data: Array(bytes[12...])))
        default:
            state.withLock { $0.hostErrors.append("host sent a \(header.kind) container") }
        }
    }

    private func run(_ request: Received) {
        state.withLock { $0.received.append(request) }
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
        ContainerHeader(
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
            case .afterClearHalt(let later): state.withLock { $0.pendingAfterClearHalt = later }
            case .unplug: pipe.unplug(afterQueued: true)
            case .data, .response:
                state.withLock { $0.hostErrors.append("unresolved action \(index)") }
            }
        }
    }
}
