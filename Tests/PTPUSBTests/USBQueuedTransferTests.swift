import Foundation
import PTP
import TestSupport
import Testing

@testable import PTPUSB

/// Several bulk-in transfers in flight during a data phase (issue 15), over the in-memory bus: the data
/// arrives whole and in order whatever the sizes, a data phase that ends short leaves the response to a
/// transfer queued behind it, a device that sends more than it declared is a clear error, and no transfer
/// is left on the bus when a transaction ends: answered, failed, timed out or closed from another thread.
@Suite("USB data phases with several transfers in flight")
struct USBQueuedTransferTests {
    /// A sink that signals once `signalAt` bytes arrived.
    final class AllBytesSink: DataSink, @unchecked Sendable {
        // Safe because `count` is written on the transaction's thread only, and the test reads it only after
        // that thread signalled its Outcome (the mailbox orders the two).
        let arrived = Mailbox<Void>()
        let signalAt: Int
        private(set) var count = 0
        init(signalAt: Int) { self.signalAt = signalAt }
        func begin(expectedLength: UInt64?) throws {}
        func write(_ chunk: UnsafeRawBufferPointer) throws {
            let before = count
            count += chunk.count
            if before < signalAt, count >= signalAt { arrived.put(()) }
        }
    }

    /// What the transaction on another thread ended with.
    final class Outcome: @unchecked Sendable {
        // Safe because `error` is written once before `done` is signalled and read only after waiting on it.
        let done = Mailbox<Void>()
        var error: Error?
    }

    /// Payloads around packet (512) and transfer (4096) boundaries; the data container is 12 bytes more.
    static let awkwardSizes = [0, 1, 500, 512 - 12, 4096 - 12, 4096, 4096 * 3 - 12, 4096 * 3 + 1, 100_000]

    @Test(arguments: awkwardSizes, [2, 4])
    func everyByteArrivesInOrderAndNothingStaysQueued(payloadCount: Int, inFlight: Int) throws {
        for zeroLengthPacket in [true, false] {
            let device = FakePTPDevice(packetSize: 512)
            let payload = pattern(payloadCount, seed: UInt8(truncatingIfNeeded: payloadCount))
            device.script = { _ in [.data(payload, zeroLengthPacket: zeroLengthPacket), .response(.ok, [9])] }
            let transport = device.transport(chunkSize: 4096, transfersInFlight: inFlight)
            defer { transport.close() }
            for id in 1...2 as ClosedRange<UInt32> {
                let sink = RecordingSink()
                let response = try transport.transact(
                    PTPCommand(.getObject, transactionID: id), dataOut: nil, dataIn: sink)
                #expect(response.code == .ok && response.transactionID == id && response.parameters == [9])
                #expect(sink.bytes == payload, "\(payloadCount) bytes, zero-length packet \(zeroLengthPacket)")
                #expect(device.pipe.transfersOnTheBus == 0)
                #expect(transport.inbound.queuedTransfers == 0)
            }
            #expect(device.pipe.queuedInPackets == 0)
            // Never a transfer asked past the container's declared end, so never one over the limit.
            #expect(device.pipe.mostTransfersOnTheBus <= inFlight)
            #expect(device.pipe.inTransferSizes.allSatisfy { $0 % 512 == 0 && $0 <= 4096 })
            if payloadCount >= 4096 * (inFlight + 1) { #expect(device.pipe.mostTransfersOnTheBus == inFlight) }
            #expect(device.hostErrors.isEmpty)
        }
    }

    @Test func aLargeDataPhaseKeepsSeveralTransfersQueued() throws {
        let device = FakePTPDevice(packetSize: 512)
        let payload = pattern((1 << 20) + 5)
        device.script = { _ in [.data(payload), .response(.ok)] }
        let transport = device.transport(chunkSize: 16 << 10, transfersInFlight: 3)
        defer { transport.close() }
        let sink = RecordingSink()
        _ = try transport.transact(PTPCommand(.getObject, transactionID: 1, parameters: [1]), dataOut: nil, dataIn: sink)
        #expect(sink.bytes == payload)
        #expect(device.pipe.mostTransfersOnTheBus == 3)
        #expect(device.pipe.submittedTransfers > 60)
        #expect(device.pipe.transfersOnTheBus == 0)
    }

    @Test func aDataPhaseThatEndsShortLeavesTheResponseToTheNextQueuedTransfer() throws {
        // 100,000 bytes declared, 5,000 sent and ended by a short packet, then the response: it lands in a
        // transfer queued for the rest of the data and is read as the response, in step.
        let device = FakePTPDevice(packetSize: 512)
        device.script = { request in
            let id = request.command.transactionID
            let header = USBContainer.dataHeader(code: request.command.code.rawValue, transactionID: id, payload: 100_000)
            return [.raw(header + pattern(5_000)), .response(.incompleteTransfer)]
        }
        let transport = device.transport(chunkSize: 2048, transfersInFlight: 4)
        defer { transport.close() }
        let sink = RecordingSink()
        let response = try transport.transact(PTPCommand(.getObject, transactionID: 1), dataOut: nil, dataIn: sink)
        #expect(response.code == .incompleteTransfer && response.transactionID == 1)
        #expect(sink.bytes == pattern(5_000))
        #expect(device.pipe.mostTransfersOnTheBus == 4)
        // The transfers queued behind the response were cancelled and reaped.
        #expect(device.pipe.transfersOnTheBus == 0)
        #expect(device.pipe.cancelledTransfers > 0)
        #expect(device.cancelledTransactions.isEmpty)

        // An OK after a short data phase is still the device's fault, and says so.
        device.script = { request in
            let id = request.command.transactionID
            let header = USBContainer.dataHeader(code: request.command.code.rawValue, transactionID: id, payload: 100_000)
            return [.raw(header + pattern(5_000)), .response(.ok)]
        }
        #expect {
            try transport.transact(PTPCommand(.getObject, transactionID: 2), dataOut: nil, dataIn: RecordingSink())
        } throws: { error in
            if case PTPError.protocolViolation(let violation) = error {
                violation.breach == .dataPhaseEnded(received: 5000, expected: 100_000)
            } else { false }
        }
        #expect(device.pipe.transfersOnTheBus == 0)
        device.script = { _ in [.data([4, 2]), .response(.ok)] }
        let next = RecordingSink()
        #expect(try transport.transact(PTPCommand(.getObject, transactionID: 3), dataOut: nil, dataIn: next).code == .ok)
        #expect(next.bytes == [4, 2])
    }

    @Test func anUnknownLengthPhaseEndsAtItsShortTransferAndTheResponseFollows() throws {
        // 0xFFFFFFFF: transfers are queued until a short one; the response comes in the one behind it.
        let device = FakePTPDevice(packetSize: 512)
        let payload = pattern(30_000)
        device.script = { request in
            var bytes: [UInt8] = []
            ContainerHeader(
                length: 0xFFFF_FFFF, kind: .data, code: request.command.code.rawValue,
                transactionID: request.command.transactionID
            ).encode(into: &bytes)
            return [.raw(bytes + payload, zeroLengthPacket: false), .response(.ok)]
        }
        let transport = device.transport(chunkSize: 4096, transfersInFlight: 3)
        defer { transport.close() }
        let sink = RecordingSink()
        #expect(try transport.transact(PTPCommand(.getObject, transactionID: 5), dataOut: nil, dataIn: sink).code == .ok)
        #expect(sink.bytes == payload)
        #expect(device.pipe.transfersOnTheBus == 0)
    }

    @Test func aDeviceThatSendsMoreThanItDeclaredIsAClearErrorWithNoOverrun() throws {
        // 10,000 bytes declared, 13,000 sent, then a response: the sink gets exactly the 10,000, the rest is
        // an error that says so, and the next transaction works.
        let device = FakePTPDevice(packetSize: 512)
        device.script = { request in
            let id = request.command.transactionID
            let header = USBContainer.dataHeader(code: request.command.code.rawValue, transactionID: id, payload: 10_000)
            return [.raw(header + pattern(13_000)), .response(.ok)]
        }
        let transport = device.transport(chunkSize: 4096, transfersInFlight: 3)
        defer { transport.close() }
        let sink = RecordingSink()
        #expect {
            try transport.transact(PTPCommand(.getObject, transactionID: 1), dataOut: nil, dataIn: sink)
        } throws: { error in
            if case PTPError.protocolViolation(let violation) = error {
                violation.operation == .getObject && violation.breach == .moreThanDeclared(expected: 10_000)
            } else { false }
        }
        #expect(sink.bytes == pattern(10_000))
        #expect(device.pipe.transfersOnTheBus == 0)
        device.script = { _ in [.data([1, 2, 3]), .response(.ok)] }
        let next = RecordingSink()
        #expect(try transport.transact(PTPCommand(.getObject, transactionID: 2), dataOut: nil, dataIn: next).code == .ok)
        #expect(next.bytes == [1, 2, 3])
    }

    @Test func aPacketLargerThanAQueuedTransferIsAnOverflowNotAnOverrun() throws {
        // A device ignoring its own packet size: 600-byte packets into 512-byte-packet transfers. The bus
        // refuses what does not fit (LIBUSB_ERROR_OVERFLOW); nothing is written past a buffer.
        let device = FakePTPDevice(packetSize: 512)
        device.script = { request in
            let id = request.command.transactionID
            let header = USBContainer.dataHeader(code: request.command.code.rawValue, transactionID: id, payload: 20_000)
            let bytes = header + pattern(20_000)
            var packets = [Array(bytes[0..<4096])]
            packets += stride(from: 4096, to: bytes.count, by: 600).map { Array(bytes[$0..<min($0 + 600, bytes.count)]) }
            return [.packets(packets)]
        }
        let transport = device.transport(chunkSize: 4096, transfersInFlight: 2)
        defer { transport.close() }
        #expect {
            try transport.transact(PTPCommand(.getObject, transactionID: 1), dataOut: nil, dataIn: RecordingSink())
        } throws: { error in
            if case PTPError.malformed(let malformation) = error {
                malformation.defect == .transferOverflow(transfer: "GetObject", code: "LIBUSB_ERROR_OVERFLOW")
            } else { false }
        }
        #expect(device.pipe.transfersOnTheBus == 0)
    }

    @Test func aDeviceThatStopsMidPhaseTimesOutWithNoTransferLeftQueued() throws {
        let device = FakePTPDevice(packetSize: 512)
        device.script = { request in
            let id = request.command.transactionID
            let header = USBContainer.dataHeader(code: request.command.code.rawValue, transactionID: id, payload: 1_000_000)
            // Full packets only, then silence: the queued transfers wait for more.
            return [.raw(Array((header + pattern(1_000_000)).prefix(40 * 512)), zeroLengthPacket: false)]
        }
        let transport = device.transport(
            timeouts: USBTimeouts(transfer: 0.1, control: 0.1, recovery: 0.2), chunkSize: 4096, transfersInFlight: 4)
        defer { transport.close() }
        let sink = RecordingSink()
        #expect {
            try transport.transact(PTPCommand(.getObject, transactionID: 1), dataOut: nil, dataIn: sink)
        } throws: { error in
            if case PTPError.timeout(let wait) = error, case .usbTransfer("GetObject", _) = wait.awaited { true } else { false }
        }
        #expect(sink.bytes == Array(pattern(1_000_000).prefix(40 * 512 - 12)))
        #expect(device.pipe.mostTransfersOnTheBus == 4)
        #expect(device.pipe.transfersOnTheBus == 0)
        #expect(device.cancelledTransactions == [1])
        device.script = { _ in [.response(.ok)] }
        #expect(try transport.transact(PTPCommand(.getStorageIDs, transactionID: 2), dataOut: nil, dataIn: nil).code == .ok)
    }

    @Test func closingWithTransfersQueuedCancelsAndReapsThemAll() throws {
        let device = FakePTPDevice(packetSize: 512)
        device.script = { request in
            let id = request.command.transactionID
            let header = USBContainer.dataHeader(code: request.command.code.rawValue, transactionID: id, payload: 1_000_000)
            return [.raw(Array((header + pattern(1_000_000)).prefix(40 * 512)), zeroLengthPacket: false)]
        }
        let transport = device.transport(timeouts: USBCloseInterruptTests.patient, chunkSize: 4096, transfersInFlight: 4)
        // Every byte sent arrived (most of them through queued transfers): the host now waits on the queue.
        let sink = AllBytesSink(signalAt: 40 * 512 - 12)
        let outcome = Outcome()
        Thread {
            do { _ = try transport.transact(PTPCommand(.getObject, transactionID: 1), dataOut: nil, dataIn: sink) } catch {
                outcome.error = error
            }
            outcome.done.put(())
        }.start()
        #expect(sink.arrived.take(timeout: 30) != nil)

        #expect(USBCloseInterruptTests.closeAside(transport).take(timeout: 30) != nil)
        #expect(outcome.done.take(timeout: 30) != nil, "the transaction still waits on the device")
        guard case PTPError.connectionClosed(.closedHere("USB", _, during: "GetObject")) = try #require(outcome.error) else {
            Issue.record("expected the USB connection closed during GetObject, got \(String(describing: outcome.error))")
            return
        }
        #expect(sink.count == 40 * 512 - 12)
        #expect(device.pipe.mostTransfersOnTheBus == 4)
        #expect(device.pipe.transfersOnTheBus == 0)
        #expect(device.pipe.cancelledTransfers > 0)
        #expect(device.pipe.isClosed)
    }
}
