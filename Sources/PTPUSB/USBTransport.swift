import Foundation
import POSIX
import PTP

/// PTP over USB (the still-image class's bulk-only protocol): commands and outgoing data on bulk-out,
/// incoming data and responses on bulk-in, events on interrupt-in read by a thread of its own.
///
/// Containers are split into and joined from packets of the endpoint's size; a transfer that is an exact
/// multiple of it ends with a zero-length packet. Data phases stream through buffers of `chunkSize`
/// bytes, up to `transfersInFlight` of them queued on the bus at once (`BulkInStream`, `USBBulkTuning`),
/// so memory stays flat for files of any size (a container length of 0xFFFFFFFF, used past 4 GiB,
/// is read until the short packet that ends it). A stalled pipe is recovered with Get Device Status and
/// clear-halt; a transaction that fails half-way is cancelled with the class Cancel request and the pipe
/// drained, so the next transaction starts clean. When the first command of a session stalls or answers
/// out of step (another program left the device mid-transaction), the full recovery runs and the command is
/// tried again (`USBTransport+OpenRecovery.swift`). An unplugged device ends every later call with
/// `PTPError.connectionClosed`.
public final class USBTransport: InitiatorTransport, @unchecked Sendable {
    // Safe because `inbound`'s buffers are used only inside a transaction (under `transactionLock`); the
    // rest of the mutable state is in `state`, a Locked.
    public let timeouts: USBTimeouts
    /// The device, when it was opened from the bus (nil over a test pipe).
    public let camera: USBCameraDescription?
    let pipe: USBPipe
    /// Data phases larger than this are cancelled rather than drained when the sink fails.
    let drainLimit: UInt64
    /// Whether a first command that fails runs the open recovery and is tried again.
    let recoversFirstCommand: Bool

    let inbound: BulkInStream
    private let outboundChunk: Int
    let events: USBEventReader?
    /// One transaction at a time; reentrant so a sink that closes the transport cannot deadlock it.
    private let transactionLock = ReentrantMutex()
    private let state = Locked(State())

    private struct State {
        var closed = false
        /// Set once the device is gone: every later call fails with it.
        var goneBecause: PTPError?
        /// Where recovery steps are told (`--debug-ptp`); see `setLog`.
        var logLine: (@Sendable (String) -> Void)? = USBTransport.standardErrorLogIfDebugging
        /// True once the device answered a transaction in step: the open recovery is for the first command.
        var answered = false
        /// A transaction id the device sent that was not ours: the transaction another program abandoned.
        /// Set and read inside a transaction (under `transactionLock`), kept here all the same.
        var strayTransactionID: UInt32?
    }

    /// A transaction id the device sent that was not ours (see `State`).
    var strayTransactionID: UInt32? {
        get { state.withLock { $0.strayTransactionID } }
        set { state.withLock { $0.strayTransactionID = newValue } }
    }

    /// The time of the recovery loops' bounds (a manual one in tests).
    let clock: any WaitClock

    /// "Canon EOS R6" or "the USB device", for messages.
    var peer: String { camera?.displayName ?? "the USB device" }

    /// A transport over an open pipe. `chunkSize` is the largest transfer (rounded to whole packets);
    /// `transfersInFlight`, how many bulk-in transfers a data phase keeps queued at once.
    /// `recoversFirstCommand`: see `USBTransport+OpenRecovery.swift`. `clock` bounds the recovery loops
    /// (waiting for a busy device to settle after a Cancel, draining what it still sends).
    public init(
        pipe: USBPipe, timeouts: USBTimeouts = USBTimeouts(), camera: USBCameraDescription? = nil,
        chunkSize: Int = USBBulkTuning.transferSize, transfersInFlight: Int = USBBulkTuning.transfersInFlight,
        drainLimit: UInt64 = 1 << 20, recoversFirstCommand: Bool = true,
        clock: any WaitClock = MonotonicClock()
    ) {
        self.pipe = pipe
        self.clock = clock
        self.timeouts = timeouts
        self.camera = camera
        self.drainLimit = drainLimit
        self.recoversFirstCommand = recoversFirstCommand
        inbound = BulkInStream(pipe: pipe, chunkSize: chunkSize, transfersInFlight: transfersInFlight)
        let outPacket = max(pipe.bulkOutPacketSize, 1)
        outboundChunk = max(outPacket, chunkSize / outPacket * outPacket)
        events = pipe.hasInterruptIn ? USBEventReader(pipe: pipe) : nil
        // Should the system refuse a thread, events are not delivered; transactions work all the same.
        try? events?.start()
    }

    deinit { close() }

    // MARK: Opening

    /// Every attached PTP/MTP device. Empty on a machine without USB (or without permission to list it).
    public static func cameras() -> [USBCameraDescription] { libUSBListCameras() }

    /// Opens the first device `selector` matches and claims its PTP interface.
    /// Throws `USBCameraError` with what to do when that fails.
    public static func open(_ selector: USBCameraSelector = .first, timeouts: USBTimeouts = USBTimeouts()) throws
        -> USBTransport
    {
        let (pipe, camera) = try libUSBOpen(selector)
        let tuning = USBBulkTuning.fromEnvironment()
        return USBTransport(
            pipe: pipe, timeouts: timeouts, camera: camera, chunkSize: tuning.transferSize,
            transfersInFlight: tuning.transfersInFlight)
    }

    // MARK: Log

    /// Sends each step the transport takes to recover a device to `log` (one line each, for `--debug-ptp`);
    /// nil sends them nowhere. Until set, they go to standard error when `MEDIASHELL_USB_DEBUG` is set.
    public func setLog(_ log: (@Sendable (String) -> Void)?) { state.withLock { $0.logLine = log } }

    func log(_ line: String) { state.withLock { $0.logLine }?("usb: " + line) }

    private static let standardErrorLogIfDebugging: (@Sendable (String) -> Void)? = {
        guard !(ProcessInfo.processInfo.environment["MEDIASHELL_USB_DEBUG"] ?? "").isEmpty else { return nil }
        return { @Sendable line in FileHandle.standardError.write(Data((line + "\n").utf8)) }
    }()

    // MARK: Events

    public func setEventHandler(_ handler: (@Sendable (PTPEvent) -> Void)?) { events?.setHandler(handler) }

    // MARK: Class requests

    /// Get Device Status: whether the device is idle, busy, or why it stalled a pipe.
    public func deviceStatus() throws -> USBDeviceStatus {
        try transactionLock.withLock {
            try checkOpen()
            do { return try pipe.deviceStatus(timeout: timeouts.control) } catch let error as LibUSBError {
                throw translate(error, "Get Device Status")
            }
        }
    }

    /// The class Device Reset request: the device abandons everything and closes its session (open a new
    /// one after this). For a device that no longer answers transactions.
    public func resetDevice() throws {
        try transactionLock.withLock {
            try checkOpen()
            do {
                try pipe.deviceResetRequest(timeout: timeouts.control)
                inbound.discardBuffered()
            } catch let error as LibUSBError {
                throw translate(error, "Device Reset")
            }
        }
    }

    // MARK: Transactions

    public func transact(_ command: PTPCommand, dataOut: DataSource?, dataIn: DataSink?) throws -> PTPResponse {
        try transactionLock.withLock { () throws -> PTPResponse in
            try checkOpen()
            let first = recoversFirstCommand && !state.withLock { $0.answered }
            let watched = dataIn.map(WatchedSink.init)
            do {
                let response = try exchange(command, dataOut: dataOut, dataIn: watched)
                state.withLock { $0.answered = true }
                return response
            } catch let failure as ExchangeFailure {
                // Closed from another thread (Ctrl-C): nothing to recover, the interface is going away.
                if state.withLock({ $0.closed }) {
                    throw PTPError.connectionClosed(.closedHere(transport: "USB", peer: peer, during: "\(command.code)"))
                }
                // Retried only when nothing of it reached the caller yet: no data sent, none delivered.
                if first, failure.leavesDeviceStuck, dataOut == nil, watched?.touched != true {
                    let response = try recoverFirstCommand(command, failure: failure) {
                        try exchange(command, dataOut: nil, dataIn: dataIn)
                    }
                    state.withLock { $0.answered = true }
                    return response
                }
                throw settle(failure, after: command)
            }
        }
    }

    /// Why a transaction failed, before it is reported.
    enum ExchangeFailure: Error {
        /// libusb failed (a stall that clearing did not cure, a timeout, an unplug).
        case usb(LibUSBError)
        /// Out of step with the device (a stray transaction id, a lying length, a source that ran dry).
        case outOfStep(Error)

        /// True when the device may still be in the middle of some transaction.
        var leavesDeviceStuck: Bool {
            if case .usb(let code) = self { return code != .noDevice }
            return true
        }
    }

    /// One transaction; the failures that leave the pipe out of step come out as `ExchangeFailure`.
    func exchange(_ command: PTPCommand, dataOut: DataSource?, dataIn: DataSink?) throws -> PTPResponse {
        // No bulk-in transfer outlives its transaction, however it ended.
        defer { inbound.endTransaction() }
        do {
            try send(command, dataOut: dataOut)
            return try receive(command, dataIn: dataIn)
        } catch let abort as DeviceAbort {
            return PTPResponse(abort.code, transactionID: command.transactionID)
        } catch let error as LibUSBError {
            throw ExchangeFailure.usb(error)
        } catch let failure as TransactionFailure {
            throw ExchangeFailure.outOfStep(failure.error)
        }
    }

    /// After a failed transaction: cancel it and drain the pipe (unless the device is gone); the error to
    /// report.
    func settle(_ failure: ExchangeFailure, after command: PTPCommand) -> Error {
        switch failure {
        case .usb(let error):
            let translated = translate(error, "\(command.code)")
            if error != .noDevice { recover(after: command) }
            return translated
        case .outOfStep(let error):
            recover(after: command)
            return error
        }
    }

    private func checkOpen() throws {
        try state.withLock { state throws(PTPError) in
            if let goneBecause = state.goneBecause { throw goneBecause }
            if state.closed { throw PTPError.connectionClosed(.closedHere(transport: "USB", peer: peer, during: nil)) }
        }
    }

    /// A libusb failure as a PTP error that says what happened; an unplugged device is remembered.
    func translate(_ error: LibUSBError, _ operation: String) -> PTPError {
        switch error {
        case .timeout:
            return .timeout(
                .init(peer: peer, seconds: timeouts.transfer, awaited: .usbTransfer(operation: operation, code: error.name)))
        case .noDevice:
            let gone = PTPError.connectionClosed(.unplugged(peer: peer, during: operation, code: error.name))
            state.withLock { if $0.goneBecause == nil { $0.goneBecause = gone } }
            return gone
        case .pipe:
            return .protocolViolation(ProtocolViolation(.stalledAfterClearHalt(transfer: operation, code: error.name), peer: peer))
        case .overflow:
            return .malformed(Malformation("USB data", .transferOverflow(transfer: operation, code: error.name), peer: peer))
        default:
            return .usbTransfer(
                USBTransferFailure(code: error.rawValue, name: error.name, reason: error.reason, operation: operation, peer: peer))
        }
    }

    // MARK: Sending

    private func send(_ command: PTPCommand, dataOut: DataSource?) throws {
        try withStallRecovery(.bulkOut) {
            try writeTransfer(ContainerCodec.command(command), endsContainer: true)
        }
        if let dataOut { try sendData(dataOut, for: command) }
    }

    /// One bulk-out transfer; when it ends a container whose length is a whole number of packets, a
    /// zero-length packet follows so the device sees the end.
    private func writeTransfer(_ bytes: [UInt8], endsContainer: Bool, totalLength: UInt64? = nil) throws {
        try bytes.withUnsafeBytes { try writeTransfer($0, endsContainer: endsContainer, totalLength: totalLength) }
    }

    private func writeTransfer(_ bytes: UnsafeRawBufferPointer, endsContainer: Bool, totalLength: UInt64? = nil) throws {
        if bytes.count > 0 { try pipe.bulkOut(bytes, timeout: timeouts.transfer) }
        let total = totalLength ?? UInt64(bytes.count)
        if endsContainer, total % UInt64(max(pipe.bulkOutPacketSize, 1)) == 0 {
            do {
                try pipe.bulkOut(UnsafeRawBufferPointer(start: nil, count: 0), timeout: timeouts.transfer)
            } catch LibUSBError.pipe {
                // QEMU's usb-mtp does this: it stalls every packet shorter than a container header.
                try? pipe.clearHalt(.bulkOut)
                throw TransactionFailure(
                    error: PTPError.protocolViolation(ProtocolViolation(.refusedZeroLengthPacket(containerBytes: total), peer: peer)))
            }
        }
    }

    /// The data container: header and the first bytes in one transfer, then whole-packet transfers.
    private func sendData(_ source: DataSource, for command: PTPCommand) throws {
        let length = source.length
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: outboundChunk, alignment: 16)
        defer { buffer.deallocate() }
        let header = USBContainer.dataHeader(code: command.code.rawValue, transactionID: command.transactionID, payload: length)
        header.withUnsafeBytes { buffer.copyMemory(from: $0) }
        var filled = header.count
        var remaining = length
        let total = length + UInt64(header.count)
        while true {
            while filled < buffer.count, remaining > 0 {
                let room = min(buffer.count - filled, Int(clamping: remaining))
                let got: Int
                do {
                    got = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled..<filled + room]))
                } catch {
                    throw TransactionFailure(error: error)
                }
                guard got > 0 else {
                    throw TransactionFailure(
                        error: PTPError.dataSourceEnded(sent: length - remaining, announced: length))
                }
                filled += min(got, room)
                remaining -= UInt64(min(got, room))
            }
            let last = remaining == 0
            try writeTransfer(
                UnsafeRawBufferPointer(rebasing: buffer[0..<filled]), endsContainer: last,
                totalLength: last ? total : nil)
            filled = 0
            if last { return }
        }
    }

    // MARK: Closing

    /// Stops the event thread and releases the interface. A transaction in progress on another thread is
    /// ended at once (its transfer interrupted, no recovery attempted: it fails with
    /// `PTPError.connectionClosed`), so closing never waits out a transfer's timeout or a long data phase.
    public func close() {
        let first = state.withLock { state in
            defer { state.closed = true }
            return !state.closed
        }
        guard first else { return }
        pipe.interruptTransfers()
        events?.stop()
        transactionLock.withLock { pipe.close() }
    }
}

extension PTPError {
    /// The same error, naming `operation` and `peer` when it is about what the peer sent.
    func attributed(to operation: OperationCode, peer: String) -> PTPError {
        switch self {
        case .malformed(var malformation):
            malformation.operation = operation
            malformation.peer = peer
            return .malformed(malformation)
        case .protocolViolation(var violation):
            violation.operation = operation
            violation.peer = peer
            return .protocolViolation(violation)
        default: return self
        }
    }
}

