import Foundation
import PTP

/// The bulk-in side of a transaction: container headers, at most one data phase streamed into the sink
/// (its transfers queued ahead by `BulkInStream`), then the response. Every length and id is the device's
/// word and is checked: a data phase that ends early or runs past its declared length, a container of the
/// wrong kind or transaction, a header cut short, each is a clear error that leaves the pipe to recovery.
extension USBTransport {
    /// Reads containers until the response: at most one data phase first, streamed into `dataIn`.
    func receive(_ command: PTPCommand, dataIn: DataSink?) throws -> PTPResponse {
        let id = command.transactionID
        var sawData = false
        var dataProblem: PTPError?
        var sinkError: Error?
        while true {
            let header = try readHeader(command)
            switch header.kind {
            case .data:
                guard header.transactionID == id else {
                    strayTransactionID = header.transactionID
                    throw violation(command, .wrongTransaction(packet: "data", found: header.transactionID, expected: id))
                }
                guard !sawData else { throw violation(command, .repeated(packet: "data phase")) }
                sawData = true
                let outcome = try receiveData(header, command: command, into: dataIn)
                sinkError = outcome.sinkError
                dataProblem = outcome.problem
                if outcome.cancelled, let sinkError { throw sinkError }
            case .response:
                let parameters = try readRest(of: header, command: command)
                guard header.transactionID == id else {
                    strayTransactionID = header.transactionID
                    throw violation(command, .wrongTransaction(packet: "a response", found: header.transactionID, expected: id))
                }
                let response = PTPResponse(
                    ResponseCode(header.code), transactionID: id, parameters: ContainerCodec.parameters(parameters[...]))
                if let sinkError { throw sinkError }
                if let dataProblem, response.code == .ok { throw dataProblem }
                return response
            case .event:
                // Not where events belong, but some devices do it: deliver and read on.
                let parameters = try readRest(of: header, command: command)
                events?.deliver(
                    PTPEvent(
                        EventCode(header.code), transactionID: header.transactionID,
                        parameters: ContainerCodec.parameters(parameters[...])))
            case .command:
                throw violation(command, .unexpected(sent: "a command container", expected: .transactionContinuation))
            }
        }
    }

    func violation(_ command: PTPCommand, _ breach: ProtocolViolation.Breach) -> TransactionFailure {
        TransactionFailure(error: PTPError.protocolViolation(ProtocolViolation(breach, operation: command.code, peer: peer)))
    }

    /// The next container header, skipping the zero-length packets that end exact-multiple containers.
    private func readHeader(_ command: PTPCommand) throws -> ContainerHeader {
        var emptyTransfers = 0
        while inbound.available < ContainerHeader.size {
            let got = try withStallRecovery(.bulkIn) {
                try inbound.fill(want: inbound.chunkSize, timeout: timeouts.transfer)
            }
            if got == 0 {
                emptyTransfers += 1
                if emptyTransfers > 16 { throw violation(command, .onlyEmptyPackets) }
                continue
            }
            if inbound.lastTransferShort, inbound.available < ContainerHeader.size {
                let count = inbound.available
                inbound.discardBuffered()
                throw TransactionFailure(
                    error: PTPError.malformed(Malformation(
                        "USB container", .shorterThanHeader(length: UInt64(count), header: ContainerHeader.size),
                        operation: command.code, peer: peer)))
            }
        }
        do {
            let header = try ContainerHeader(usb: inbound.buffered)
            inbound.consume(ContainerHeader.size) { _ in }
            return header
        } catch let error as PTPError {
            inbound.discardBuffered()
            throw TransactionFailure(error: error.attributed(to: command.code, peer: peer))
        }
    }

    /// The parameters of a response or event container (at most 20 bytes, checked by the header).
    private func readRest(of header: ContainerHeader, command: PTPCommand) throws -> [UInt8] {
        let count = Int(header.length) - ContainerHeader.size
        while inbound.available < count {
            if inbound.lastTransferShort {
                throw TransactionFailure(
                    error: PTPError.malformed(Malformation(
                        "USB \(header.kind) container",
                        .lengthMismatch(announced: UInt64(header.length), actual: UInt64(ContainerHeader.size + inbound.available)),
                        operation: command.code, peer: peer)))
            }
            try withStallRecovery(.bulkIn) { try inbound.fill(want: count, timeout: timeouts.transfer) }
        }
        return inbound.consume(count) { Array($0) }
    }

    private struct DataOutcome {
        var sinkError: Error?
        /// The data phase ended early (reported unless the response explains it).
        var problem: PTPError?
        /// The sink failed and the device was told to cancel: no response follows.
        var cancelled = false
    }

    private func receiveData(_ header: ContainerHeader, command: PTPCommand, into sink: DataSink?) throws -> DataOutcome {
        var outcome = DataOutcome()
        let expected: UInt64? = header.announcesUnknownLength ? nil : header.payloadLength
        var received: UInt64 = 0
        if let sink {
            do { try sink.begin(expectedLength: expected) } catch { outcome.sinkError = error }
        }

        func deliver(_ count: Int) {
            inbound.consume(count) { chunk in
                if outcome.sinkError == nil, let sink, chunk.count > 0 {
                    do { try sink.write(chunk) } catch { outcome.sinkError = error }
                }
            }
            received += UInt64(count)
        }

        /// After a sink failure: cancel a large phase (true), or keep draining a small one (false).
        func cancelIfWorthIt() throws -> Bool {
            guard outcome.sinkError != nil else { return false }
            if let expected, expected - received <= drainLimit { return false }
            do {
                try pipe.cancelRequest(transactionID: command.transactionID, timeout: timeouts.control)
            } catch LibUSBError.noDevice {
                throw LibUSBError.noDevice
            } catch {
                return false  // no Cancel here: drain instead
            }
            settleAfterCancel()
            return true
        }

        if let expected {
            deliver(Int(min(UInt64(inbound.available), expected)))
            if received < expected { inbound.readAhead(remaining: expected - received) }
            while received < expected {
                if try cancelIfWorthIt() {
                    outcome.cancelled = true
                    return outcome
                }
                if inbound.available == 0 {
                    if inbound.lastTransferShort {
                        outcome.problem = PTPError.protocolViolation(
                            ProtocolViolation(.dataPhaseEnded(received: received, expected: expected), operation: command.code, peer: peer))
                        return outcome
                    }
                    let want = Int(min(expected - received, UInt64(inbound.chunkSize)))
                    try withStallRecovery(.bulkIn) { try inbound.fill(want: want, timeout: timeouts.transfer) }
                }
                deliver(Int(min(UInt64(inbound.available), expected - received)))
            }
            if sentMoreThanDeclared() {
                throw violation(command, .moreThanDeclared(expected: expected))
            }
        } else {
            // Longer than 4 GiB: everything up to the short packet that ends the container.
            deliver(inbound.available)
            inbound.readAhead(remaining: nil)
            while !inbound.lastTransferShort {
                if try cancelIfWorthIt() {
                    outcome.cancelled = true
                    return outcome
                }
                let got = try withStallRecovery(.bulkIn) {
                    try inbound.fill(want: inbound.chunkSize, timeout: timeouts.transfer)
                }
                // A device that sends no zero-length packet after an exact multiple: the "data" that
                // arrives is its response. Leave it for the response reader.
                if got < inbound.chunkSize, isResponse(inbound.buffered, transactionID: command.transactionID) { break }
                deliver(got)
            }
        }
        return outcome
    }

    /// After a data phase of known length: true when the bytes left in the transfer that ended it cannot be
    /// the next container (a response or an event), so the device sent more data than it declared. Fewer
    /// than a header's worth in a transfer that goes on may be the start of one: the header reader decides.
    private func sentMoreThanDeclared() -> Bool {
        guard inbound.available > 0 else { return false }
        guard inbound.available >= ContainerHeader.size else { return inbound.lastTransferShort }
        guard let next = try? ContainerHeader(usb: inbound.buffered) else { return true }
        return next.kind != .response && next.kind != .event
    }

    /// True when `bytes` are exactly one response container for `transactionID`.
    private func isResponse(_ bytes: UnsafeRawBufferPointer, transactionID: UInt32) -> Bool {
        guard let header = try? ContainerHeader(usb: bytes) else { return false }
        return header.kind == .response && header.transactionID == transactionID && Int(header.length) == bytes.count
    }
}
