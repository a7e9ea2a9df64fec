import Foundation
import PTP
import TestSupport
import Testing

@testable import PTPUSB

/// Records what a data phase delivered and in what pieces.
final class RecordingSink: DataSink {
    var announced: UInt64??
    var bytes: [UInt8] = []
    var chunkSizes: [Int] = []
    /// Throws on the write that would pass this many bytes.
    var failAfter: Int?

    init(failAfter: Int? = nil) { self.failAfter = failAfter }

    func begin(expectedLength: UInt64?) throws { announced = .some(expectedLength) }

    func write(_ chunk: UnsafeRawBufferPointer) throws {
        if let failAfter, bytes.count + chunk.count > failAfter { throw CancellationError() }
        bytes += chunk
        chunkSizes.append(chunk.count)
    }
}

func pattern(_ count: Int, seed: UInt8 = 7) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed) &+ ($0 >> 8)) }
}

@Suite("USB container framing over an in-memory bus", .tags(.process), .notInFastRun)
struct USBFramingTests {
    @Test func commandContainerIsLittleEndianHeaderAndParameters() throws {
        let device = FakePTPDevice()
        let transport = device.transport()
        defer { transport.close() }
        let response = try transport.transact(
            PTPCommand(.getObjectHandles, transactionID: 7, parameters: [0x0001_0001, 0, 0xFFFF_FFFF]),
            dataOut: nil, dataIn: nil)
        #expect(response.code == .ok && response.transactionID == 7)
        #expect(
            device.pipe.outPackets.first == [
                24, 0, 0, 0, 1, 0, 0x07, 0x10, 7, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF,
            ])
        #expect(device.hostErrors.isEmpty)
    }

    @Test func smallDataPhaseAndResponseWithParameters() throws {
        let device = FakePTPDevice()
        device.script = { _ in [.data([1, 2, 3, 4, 5]), .response(.ok, [5, 6])] }
        let transport = device.transport()
        defer { transport.close() }
        let sink = RecordingSink()
        let response = try transport.transact(PTPCommand(.getStorageIDs, transactionID: 3), dataOut: nil, dataIn: sink)
        #expect(sink.bytes == [1, 2, 3, 4, 5])
        #expect(sink.announced == .some(5))
        #expect(response.parameters == [5, 6])
    }

    /// uMTP-Responder 1.3.10 answers OpenSession on a session it kept with a 13-byte SessionAlreadyOpen
    /// container; like libgphoto2, the stray byte after the last whole parameter is ignored.
    @Test func strayBytesAfterTheResponseParametersAreIgnored() throws {
        let device = FakePTPDevice()
        device.script = { received in [.raw(rawHeader(13, 3, 0x201E, received.command.transactionID) + [1])] }
        let transport = device.transport()
        defer { transport.close() }
        let response = try transport.transact(
            PTPCommand(.openSession, transactionID: 0, parameters: [1]), dataOut: nil, dataIn: nil)
        #expect(response.code == .sessionAlreadyOpen && response.parameters.isEmpty)
    }

    @Test(arguments: [52, 4096 * 2 - 12], [true, false])
    func containersOfExactPacketMultiplesWithAndWithoutZeroLengthPacket(payload: Int, zlp: Bool) throws {
        // 12-byte header + 52 bytes = one full 64-byte packet; 8180 + 12 = two whole 4 KiB transfers. A
        // zero-length packet follows (or none, as QEMU does); either way the next container is read right.
        let device = FakePTPDevice(packetSize: 64)
        device.script = { _ in [.data(pattern(payload), zeroLengthPacket: zlp), .response(.ok)] }
        let transport = device.transport(chunkSize: 4096)
        defer { transport.close() }
        for id in 1...3 as ClosedRange<UInt32> {
            let sink = RecordingSink()
            _ = try transport.transact(PTPCommand(.getObjectInfo, transactionID: id), dataOut: nil, dataIn: sink)
            #expect(sink.bytes == pattern(payload))
        }
        #expect(device.pipe.inTransferSizes.allSatisfy { $0 % 64 == 0 })
        #expect(device.pipe.queuedInPackets == 0)
    }

    @Test func headersAndResponsesSpanningPackets() throws {
        // 8-byte packets: every header, the data and the response are split across packets.
        let device = FakePTPDevice(packetSize: 8)
        device.script = { _ in [.data(pattern(37)), .response(.ok, [1, 2, 3])] }
        let transport = device.transport(chunkSize: 16)
        defer { transport.close() }
        let sink = RecordingSink()
        let response = try transport.transact(
            PTPCommand(.getObjectInfo, transactionID: 9, parameters: [1, 2, 3, 4, 5]), dataOut: nil, dataIn: sink)
        #expect(sink.bytes == pattern(37))
        #expect(response.parameters == [1, 2, 3])
        // The 32-byte command is 4 full packets: a zero-length packet must follow it.
        #expect(device.zeroLengthPacketsSeen == 1)
        #expect(device.hostErrors.isEmpty)
    }

    @Test func multiPacketDataPhaseIsStreamedInBoundedChunks() throws {
        let device = FakePTPDevice(packetSize: 512)
        let payload = pattern((1 << 20) + 7)
        device.script = { _ in [.data(payload), .response(.ok)] }
        let transport = device.transport(chunkSize: 16 << 10)
        defer { transport.close() }
        let sink = RecordingSink()
        _ = try transport.transact(PTPCommand(.getObject, transactionID: 1, parameters: [1]), dataOut: nil, dataIn: sink)
        #expect(sink.bytes == payload)
        #expect(sink.announced == .some(UInt64(payload.count)))
        #expect(sink.chunkSizes.count > 60)
        #expect(sink.chunkSizes.allSatisfy { $0 <= 16 << 10 })
        #expect(device.pipe.inTransferSizes.allSatisfy { $0 % 512 == 0 && $0 <= 16 << 10 })
    }

    @Test(arguments: [10_000, 4096 * 3 - 12])
    func unknownLengthContainerIsReadUntilTheShortPacket(payloadCount: Int) throws {
        // 0xFFFFFFFF announces "more than 4 GiB". The second case ends exactly on a transfer boundary and
        // the device sends no zero-length packet: the response must not be taken for data.
        let device = FakePTPDevice(packetSize: 512)
        let payload = pattern(payloadCount)
        device.script = { request in
            var bytes: [UInt8] = []
            ContainerHeader(
                length: 0xFFFF_FFFF, kind: .data, code: request.command.code.rawValue,
                transactionID: request.command.transactionID
            ).encode(into: &bytes)
            return [.raw(bytes + payload, zeroLengthPacket: false), .response(.ok)]
        }
        let transport = device.transport(chunkSize: 4096)
        defer { transport.close() }
        let sink = RecordingSink()
        let response = try transport.transact(PTPCommand(.getObject, transactionID: 4), dataOut: nil, dataIn: sink)
        #expect(response.code == .ok)
        #expect(sink.announced == .some(nil))
        #expect(sink.bytes == payload)
    }

    @Test(arguments: [(1024 - 12, true), (1000, false), (100_000, false), (4096 * 4 - 12, true)])
    func outgoingDataPhaseEndsWithZeroLengthPacketOnExactMultiples(count: Int, needsZLP: Bool) throws {
        let device = FakePTPDevice(packetSize: 512)
        var got: [UInt8] = []
        device.script = { request in
            got = request.data ?? []
            return [.response(.ok)]
        }
        let transport = device.transport(chunkSize: 4096)
        defer { transport.close() }
        let payload = pattern(count, seed: 3)
        _ = try transport.transact(
            PTPCommand(.sendObject, transactionID: 2), dataOut: BufferSource(payload), dataIn: nil)
        #expect(got == payload)
        #expect(device.zeroLengthPacketsSeen == (needsZLP ? 1 : 0))
        #expect(device.hostErrors.isEmpty)
    }

    @Test func stalledBulkInIsRecoveredWithClearHalt() throws {
        let device = FakePTPDevice()
        device.script = { _ in [.stall(.bulkIn), .afterClearHalt([.data(pattern(3000)), .response(.ok)])] }
        let transport = device.transport()
        defer { transport.close() }
        let sink = RecordingSink()
        let response = try transport.transact(PTPCommand(.getObject, transactionID: 5), dataOut: nil, dataIn: sink)
        #expect(response.code == .ok)
        #expect(sink.bytes == pattern(3000))
        #expect(device.pipe.clearedHalts == [.bulkIn])
    }

    @Test func stallExplainedByDeviceStatusEndsTheTransactionWithThatCode() throws {
        let device = FakePTPDevice()
        device.status = USBDeviceStatus(code: .incompleteTransfer, haltedEndpoints: [0x81])
        device.script = { _ in [.stall(.bulkIn)] }
        let transport = device.transport()
        defer { transport.close() }
        let response = try transport.transact(PTPCommand(.getObject, transactionID: 5), dataOut: nil, dataIn: RecordingSink())
        #expect(response.code == .incompleteTransfer)
        #expect(device.pipe.clearedHalts.contains(.bulkIn))
        // And the pipe works again.
        device.status = USBDeviceStatus(code: .ok)
        device.script = { _ in [.response(.ok)] }
        #expect(try transport.transact(PTPCommand(.getStorageIDs, transactionID: 6), dataOut: nil, dataIn: nil).code == .ok)
    }

    @Test func endlessStallIsAnErrorNotALoop() throws {
        let device = FakePTPDevice()
        device.status = nil  // Get Device Status refused, as QEMU does
        device.script = { _ in [.stall(.bulkIn)] }
        device.pipe.onClearHalt = { [pipe = device.pipe] _ in pipe.stall(.bulkIn) }
        let transport = device.transport()
        defer { transport.close() }
        #expect {
            try transport.transact(PTPCommand(.getObject, transactionID: 1), dataOut: nil, dataIn: nil)
        } throws: { error in
            guard case PTPError.protocolViolation(let violation) = error else { return false }
            return violation.breach == .stalledAfterClearHalt(transfer: "GetObject", code: "LIBUSB_ERROR_PIPE")
        }
    }

    @Test func deviceThatStopsAnsweringTimesOutAndTheNextTransactionWorks() throws {
        let device = FakePTPDevice()
        device.script = { _ in [] }
        let transport = device.transport(timeouts: USBTimeouts(transfer: 0.2, control: 0.2, recovery: 0.3))
        defer { transport.close() }
        let started = Date()
        #expect {
            try transport.transact(PTPCommand(.getObject, transactionID: 1), dataOut: nil, dataIn: nil)
        } throws: { error in
            guard case PTPError.timeout(let wait) = error else { return false }
            return wait.awaited == .usbTransfer(operation: "GetObject", code: "LIBUSB_ERROR_TIMEOUT")
        }
        #expect(Date().timeIntervalSince(started) < 3)
        #expect(device.cancelledTransactions == [1])
        device.script = { _ in [.response(.ok)] }
        #expect(try transport.transact(PTPCommand(.getStorageIDs, transactionID: 2), dataOut: nil, dataIn: nil).code == .ok)
    }

    /// Replies that lie or are garbage, each with the error it must produce; the transport recovers after each.
    static func badReplies() -> [(name: String, reply: (UInt32) -> [FakePTPDevice.Action], check: (PTPError) -> Bool)] {
        [
        (
            "response shorter than a header", { _ in [.raw([5, 0, 0, 0, 3, 0, 1, 0x20, 1, 0, 0, 0])] },
            { if case .malformed = $0 { true } else { false } }
        ),
        (
            "response longer than five parameters", { id in [.raw(rawHeader(100, 3, 0x2001, id) + [UInt8](repeating: 0, count: 88))] },
            { if case .malformed = $0 { true } else { false } }
        ),
        (
            "unknown container type", { id in [.raw(rawHeader(12, 9, 0x2001, id))] },
            { if case .malformed(let m) = $0 { m.defect == .unknownType(9) } else { false } }
        ),
        ("three bytes", { _ in [.packets([[1, 2, 3]])] }, { if case .malformed = $0 { true } else { false } }),
        (
            "data shorter than announced", { id in [.raw(rawHeader(1000, 2, 0x1009, id) + pattern(100)), .raw(FakePTPDevice.response(.ok, transactionID: id))] },
            { if case .protocolViolation(let v) = $0 { v.breach == .dataPhaseEnded(received: 100, expected: 988) } else { false } }
        ),
        (
            "wrong transaction id", { id in [.raw(FakePTPDevice.response(.ok, transactionID: id + 5))] },
            { if case .protocolViolation = $0 { true } else { false } }
        ),
        (
            "data container announcing 8 bytes", { id in [.raw(rawHeader(8, 2, 0x1009, id))] },
            { if case .malformed = $0 { true } else { false } }
        ),
        (
            "a second data phase", { id in [.raw(rawHeader(14, 2, 0x1009, id) + [1, 2]), .raw(rawHeader(14, 2, 0x1009, id) + [1, 2])] },
            { if case .protocolViolation(let v) = $0 { v.breach == .repeated(packet: "data phase") } else { false } }
        ),
        ]
    }

    @Test(arguments: 0..<8)
    func lyingOrGarbageRepliesGiveTypedErrors(index: Int) throws {
        let bad = Self.badReplies()[index]
        let device = FakePTPDevice()
        device.script = { request in bad.reply(request.command.transactionID) }
        let transport = device.transport(timeouts: USBTimeouts(transfer: 0.3, control: 0.2, recovery: 0.3))
        defer { transport.close() }
        do {
            _ = try transport.transact(PTPCommand(.getObject, transactionID: 1), dataOut: nil, dataIn: RecordingSink())
            Issue.record("\(bad.name): no error")
        } catch let error as PTPError {
            #expect(bad.check(error), "\(bad.name): \(error)")
        }
        device.script = { _ in [.data([9, 9]), .response(.ok)] }
        let sink = RecordingSink()
        #expect(try transport.transact(PTPCommand(.getStorageIDs, transactionID: 2), dataOut: nil, dataIn: sink).code == .ok)
        #expect(sink.bytes == [9, 9], "\(bad.name): the next transaction is out of step")
    }

    @Test func randomGarbageNeverCrashes() throws {
        var generator = SeededRandom(test: "USB framing garbage")
        let device = FakePTPDevice(packetSize: 64)
        let transport = device.transport(timeouts: USBTimeouts(transfer: 0.02, control: 0.02, recovery: 0.05), chunkSize: 256)
        defer { transport.close() }
        for round in 0..<150 {
            let count = Int(generator.next() % 300)
            var bytes = (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            if count >= 12, generator.next() % 2 == 0 {
                // A plausible header makes the garbage reach further.
                let kind = UInt8(2 + generator.next() % 2)
                bytes.replaceSubrange(0..<12, with: rawHeader(UInt32(generator.next() % 400), kind, 0x2001, UInt32(round + 1)))
            }
            let zlp = generator.next() % 2 == 0
            device.script = { _ in [.raw(bytes, zeroLengthPacket: zlp)] }
            do {
                _ = try transport.transact(
                    PTPCommand(.getObject, transactionID: UInt32(round + 1)), dataOut: nil, dataIn: RecordingSink())
            } catch is PTPError {
                // expected
            } catch {
                Issue.record("round \(round) gave a foreign error \(error), \(generator)")
            }
        }
    }

    @Test func unplugMidTransferIsAClearErrorAndKeepsWhatArrived() throws {
        let device = FakePTPDevice()
        let payload = pattern(100_000)
        device.script = { request in
            let header = USBContainer.dataHeader(
                code: request.command.code.rawValue, transactionID: request.command.transactionID, payload: 100_000)
            return [.raw(Array((header + payload).prefix(20_000)), zeroLengthPacket: false), .unplug]
        }
        let transport = device.transport(chunkSize: 4096)
        defer { transport.close() }
        let sink = RecordingSink()
        #expect {
            try transport.transact(PTPCommand(.getObject, transactionID: 1), dataOut: nil, dataIn: sink)
        } throws: { error in
            guard case PTPError.connectionClosed(.unplugged(_, _, code: "LIBUSB_ERROR_NO_DEVICE")) = error else { return false }
            return true
        }
        #expect(sink.bytes.count > 10_000)
        #expect(sink.bytes == Array(payload.prefix(sink.bytes.count)))
        #expect(throws: PTPError.self) {
            try transport.transact(PTPCommand(.getStorageIDs, transactionID: 2), dataOut: nil, dataIn: nil)
        }
    }

    @Test func failingSinkOnASmallPhaseDrainsItAndRethrows() throws {
        let device = FakePTPDevice()
        device.script = { _ in [.data(pattern(10_000)), .response(.ok)] }
        let transport = device.transport()
        defer { transport.close() }
        #expect(throws: CancellationError.self) {
            try transport.transact(PTPCommand(.getObject, transactionID: 1), dataOut: nil, dataIn: RecordingSink(failAfter: 100))
        }
        #expect(device.cancelledTransactions.isEmpty)
        device.script = { _ in [.data([7]), .response(.ok)] }
        let sink = RecordingSink()
        _ = try transport.transact(PTPCommand(.getObject, transactionID: 2), dataOut: nil, dataIn: sink)
        #expect(sink.bytes == [7])
    }

    @Test func failingSinkOnALargePhaseCancelsTheTransaction() throws {
        let device = FakePTPDevice()
        device.script = { _ in [.data(pattern(200_000)), .response(.ok)] }
        let transport = device.transport(drainLimit: 8192)
        defer { transport.close() }
        #expect(throws: CancellationError.self) {
            try transport.transact(PTPCommand(.getObject, transactionID: 11), dataOut: nil, dataIn: RecordingSink(failAfter: 5000))
        }
        #expect(device.cancelledTransactions == [11])
        device.script = { _ in [.data([7]), .response(.ok)] }
        let sink = RecordingSink()
        _ = try transport.transact(PTPCommand(.getObject, transactionID: 12), dataOut: nil, dataIn: sink)
        #expect(sink.bytes == [7])
    }

    @Test func eventsArriveOnTheInterruptPipeAcrossPackets() throws {
        let device = FakePTPDevice(interruptPacketSize: 8)
        let transport = device.transport()
        defer { transport.close() }
        let received = Mailbox<PTPEvent>()
        transport.setEventHandler { event in received.put(event) }
        device.sendEvent(.objectAdded, parameters: [42])
        device.sendEvent(.storeRemoved, parameters: [0x0001_0001, 2])
        let first = received.take(timeout: 5)
        let second = received.take(timeout: 5)
        #expect(first?.code == .objectAdded && first?.parameters == [42])
        #expect(second?.code == .storeRemoved && second?.parameters == [0x0001_0001, 2])
    }

    @Test func classRequestsAndClose() throws {
        let device = FakePTPDevice()
        device.status = USBDeviceStatus(code: .deviceBusy)
        let transport = device.transport()
        #expect(try transport.deviceStatus() == USBDeviceStatus(code: .deviceBusy))
        try transport.resetDevice()
        #expect(device.resets == 1)
        transport.close()
        #expect(device.pipe.isClosed)
        #expect {
            try transport.transact(PTPCommand(.getStorageIDs, transactionID: 1), dataOut: nil, dataIn: nil)
        } throws: { error in
            if case PTPError.connectionClosed = error { true } else { false }
        }
    }
}

func rawHeader(_ length: UInt32, _ kind: UInt8, _ code: UInt16, _ id: UInt32) -> [UInt8] {
    var w = PTPWriter()
    w.uint32(length)
    w.uint16(UInt16(kind))
    w.uint16(code)
    w.uint32(id)
    return w.bytes
}


