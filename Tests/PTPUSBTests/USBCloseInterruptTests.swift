import Foundation
import PTP
import TestSupport
import Testing

@testable import PTPUSB

/// Ctrl-C over USB (issue 10): closing the transport from another thread ends a transaction that is
/// waiting on the device at once, instead of waiting out the bulk transfer (the transfer timeout here is
/// five minutes, so only the close can end it within the tests' bounds).
@Suite("Closing a USB transport during a transfer")
struct USBCloseInterruptTests {
    /// A sink that signals once the first bytes of the data phase arrived.
    final class FirstBytesSink: DataSink, @unchecked Sendable {
        // Safe because `count` is written on the transaction's thread only, and the test reads it only after
        // that thread signalled its Outcome (the mailbox orders the two).
        let arrived = Mailbox<Void>()
        private(set) var count = 0
        func begin(expectedLength: UInt64?) throws {}
        func write(_ chunk: UnsafeRawBufferPointer) throws {
            if count == 0 { arrived.put(()) }
            count += chunk.count
        }
    }

    /// What a transaction on another thread ended with.
    final class Outcome: @unchecked Sendable {
        // Safe because `error` is written once before `done` is signalled and read only after waiting on it.
        let done = Mailbox<Void>()
        var error: Error?
    }

    static let patient = USBTimeouts(transfer: 300, control: 300, recovery: 300)

    /// Runs `command` on a thread of its own; the returned outcome's `done` gets an item when it ends.
    static func start(_ command: PTPCommand, on transport: USBTransport, into sink: FirstBytesSink?) -> Outcome {
        let outcome = Outcome()
        Thread {
            do { _ = try transport.transact(command, dataOut: nil, dataIn: sink) } catch { outcome.error = error }
            outcome.done.put(())
        }.start()
        return outcome
    }

    /// Closes `transport` on a thread of its own; signalled when `close` returned.
    static func closeAside(_ transport: USBTransport) -> Mailbox<Void> {
        let closed = Mailbox<Void>()
        Thread {
            transport.close()
            closed.put(())
        }.start()
        return closed
    }

    @Test func closeDuringADataPhaseTheDeviceStoppedSendingEndsItAtOnce() throws {
        let device = FakePTPDevice()
        // 20 kB of a 1 MB file, then nothing: the host waits in a bulk-in transfer.
        device.script = { request in
            let header = USBContainer.dataHeader(
                code: request.command.code.rawValue, transactionID: request.command.transactionID, payload: 1_000_000)
            return [.raw(Array((header + pattern(1_000_000)).prefix(20_000)), zeroLengthPacket: false)]
        }
        let transport = device.transport(timeouts: Self.patient)
        let sink = FirstBytesSink()
        let outcome = Self.start(PTPCommand(.getObject, transactionID: 1), on: transport, into: sink)
        #expect(sink.arrived.take(timeout: 30) != nil)

        let closed = Self.closeAside(transport)
        #expect(closed.take(timeout: 30) != nil, "close waited for the transfer")
        #expect(outcome.done.take(timeout: 30) != nil, "the transaction still waits on the device")
        guard case PTPError.connectionClosed(.closedHere("USB", _, during: "GetObject")) = try #require(outcome.error) else {
            Issue.record("expected the USB connection closed during GetObject, got \(String(describing: outcome.error))")
            return
        }
        #expect(sink.count > 0 && sink.count < 1_000_000)
        // No recovery was attempted on a transport being closed: no Cancel, no Get Device Status.
        #expect(device.cancelledTransactions.isEmpty)
        #expect(device.statusRequestCount == 0)
        #expect(device.pipe.isClosed)
    }

    @Test func closeBeforeTheDeviceAnsweredACommandEndsTheWait() throws {
        let device = FakePTPDevice()
        let taken = Mailbox<Void>()
        device.script = { _ in  // takes the command, never answers
            taken.put(())
            return []
        }
        let transport = device.transport(timeouts: Self.patient)
        let outcome = Self.start(PTPCommand(.getStorageIDs, transactionID: 1), on: transport, into: nil)
        #expect(taken.take(timeout: 30) != nil)

        #expect(Self.closeAside(transport).take(timeout: 30) != nil)
        #expect(outcome.done.take(timeout: 30) != nil)
        #expect {
            if let error = outcome.error { throw error }
        } throws: { error in
            if case PTPError.connectionClosed = error { true } else { false }
        }
        // Later calls say the connection was closed.
        #expect {
            try transport.transact(PTPCommand(.getStorageIDs, transactionID: 2), dataOut: nil, dataIn: nil)
        } throws: { error in
            if case PTPError.connectionClosed(.closedHere("USB", _, during: nil)) = error { true } else { false }
        }
    }
}
