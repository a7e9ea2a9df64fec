import Foundation
@testable import FujiWiFi
import POSIX
import PTP
import TestSupport
import Testing

/// Sinks that keep what they are given, or refuse it.
final class CollectingSink: DataSink {
    var bytes: [UInt8] = []
    var announced: UInt64?
    var writes = 0
    func begin(expectedLength: UInt64?) throws { announced = expectedLength }
    func write(_ chunk: UnsafeRawBufferPointer) throws {
        writes += 1
        bytes.append(contentsOf: chunk)
    }
}

extension FujiNetwork {
    /// Our initiator against a camera the test plays byte by byte.
    @Suite struct InitiatorAgainstScriptedCamera {
        @Test func handshakeStepsAreObservedWhateverTheCuts() throws {
            let camera = try ScriptedCamera()
            defer { camera.close() }
            for cuts in [[], [1], [4, 5], Array(1..<0x44), [8, 30, 67]] {
                let steps = Mailbox<FujiHandshakeStep>()
                let (initiator, socket) = try connectScripted(camera, cuts: cuts, steps: steps)
                #expect(initiator.deviceName == "X-T20")
                #expect(initiator.deviceGUID == Array(repeating: 0xAB, count: 16))
                #expect(steps.take(timeout: 5) { if case .connected = $0 { true } else { false } } != nil)
                #expect(steps.take(timeout: 5) { $0 == .sentRequest(FujiHandshake.request(guid: FujiInitiator.processGUID, name: "tester")) } != nil)
                #expect(steps.take(timeout: 5) { $0 == .receivedAnswer(cameraAnswer) } != nil)
                initiator.close()
                socket.close()
            }
        }

        /// A data phase and its response, cut at every place and at random, arrive whole and in order.
        @Test func aTransactionSurvivesAnyCutOfItsBytes() throws {
            let camera = try ScriptedCamera()
            defer { camera.close() }
            let (initiator, socket) = try connectScripted(camera)
            defer {
                initiator.close()
                socket.close()
            }
            let payload = pattern(40)
            var random = SeededRandom(test: "fuji cuts")
            var transaction: UInt32 = 1
            func exchange(cuts: [Int]) throws {
                let id = transaction
                transaction += 1
                let reply = try dataBytes(code: 0x1009, transactionID: id, payload: payload)
                    + responseBytes(transactionID: id, parameters: [3])
                let asked = Background {
                    let sink = CollectingSink()
                    let response = try initiator.transact(PTPCommand(.getObject, transactionID: id, parameters: [9]), dataOut: nil, dataIn: sink)
                    return (response, sink.bytes, sink.announced)
                }
                let (header, body) = try socket.readContainer()
                #expect(header == ContainerHeader(length: 16, kind: .command, code: 0x1009, transactionID: id))
                #expect(body == [9, 0, 0, 0])
                try socket.send(reply, cutAt: cuts)
                let (response, bytes, announced) = try asked.result()
                #expect(response == PTPResponse(.ok, transactionID: id, parameters: [3]), "\(cuts)")
                #expect(bytes == payload, "\(cuts)")
                #expect(announced == 40)
            }
            let length = 12 + 40 + 16
            for cut in 1..<length { try exchange(cuts: [cut]) }
            try exchange(cuts: Array(1..<length))
            for _ in 0..<20 {
                try exchange(cuts: (0..<4).map { _ in Int(random.next() % UInt64(length)) })
            }
        }

        /// A data phase going to the camera is one container: header and payload, the operation repeated.
        @Test func dataOutIsOneContainer() throws {
            let camera = try ScriptedCamera()
            defer { camera.close() }
            let (initiator, socket) = try connectScripted(camera)
            defer {
                initiator.close()
                socket.close()
            }
            let sent = Background {
                try initiator.transact(
                    PTPCommand(.setDevicePropValue, transactionID: 1, parameters: [0xDF01]), dataOut: BufferSource([5, 0]), dataIn: nil)
            }
            let command = try socket.readContainer()
            #expect(command.header.kind == .command)
            #expect(command.body == [1, 0xDF, 0, 0])
            let data = try socket.readContainer()
            #expect(data.header == ContainerHeader(length: 14, kind: .data, code: 0x1016, transactionID: 1))
            #expect(data.body == [5, 0])
            try socket.send(responseBytes(transactionID: 1), .eachWait(5))
            #expect(try sent.result().code == .ok)
        }

        /// `--debug-ptp` records the opening: the TCP connection, both init packets with their fields, and,
        /// for a camera that never answers, the packet the opening waited for.
        @Test func theTraceRecordsTheHandshake() throws {
            let camera = try ScriptedCamera()
            defer { camera.close() }
            let lines = Mailbox<String>()
            let trace = PTPTrace(redact: false) { lines.put($0) }
            let port = camera.port
            let answered = Background {
                try FujiInitiator.connect(host: "127.0.0.1", port: port, eventPort: nil, name: "tracer", trace: trace)
            }
            let socket = try camera.accept()
            _ = try socket.read(82)
            try socket.send(cameraAnswer, .eachWait(5))
            let initiator = try answered.result()
            initiator.close()
            socket.close()
            let recorded = lines.all
            #expect(recorded.contains { $0.contains("> connect") && $0.contains("TCP to 127.0.0.1:\(port) (command socket)") }, "\(recorded)")
            #expect(recorded.contains { $0.contains("> init") && $0.contains("Fuji init request (82 bytes") && $0.contains("name \"tracer\"") }, "\(recorded)")
            #expect(recorded.contains { $0.contains("< init") && $0.contains("Fuji init answer (68 bytes)") && $0.contains("name \"X-T20\"") }, "\(recorded)")

            let silentLines = Mailbox<String>()
            let silentTrace = PTPTrace(redact: false) { silentLines.put($0) }
            let silent = Background {
                try FujiInitiator.connect(
                    host: "127.0.0.1", port: port, eventPort: nil, name: "t", timeouts: FujiTimeouts(connect: 5, read: 0.3), trace: silentTrace)
            }
            let quiet = try camera.accept()
            defer { quiet.close() }
            #expect(throws: PTPError.self) { _ = try silent.result() }
            #expect(silentLines.all.contains { $0.contains("! error") && $0.contains("no Fuji init answer (0x44 bytes) within 0.3 s after Fuji init request (82 bytes)") }, "\(silentLines.all)")
        }

        /// A camera that refuses an operation before its data phase (vcam does, for a property it does not
        /// know) gets no data container: it would read it as the next command.
        @Test func aRefusalBeforeTheDataPhaseIsTakenWithoutSendingTheData() throws {
            let camera = try ScriptedCamera()
            defer { camera.close() }
            let (initiator, socket) = try connectScripted(camera)
            defer {
                initiator.close()
                socket.close()
            }
            let sent = Background {
                try initiator.transact(
                    PTPCommand(.setDevicePropValue, transactionID: 1, parameters: [0x5003]), dataOut: BufferSource([1, 2]), dataIn: nil)
            }
            _ = try socket.readContainer()
            try socket.send(responseBytes(.devicePropNotSupported, transactionID: 1), .eachWait(5))
            #expect(try sent.result().code == .devicePropNotSupported)
            // The next thing on the wire is the next command, not a data container.
            let next = Background { try initiator.transact(PTPCommand(.getDeviceInfo, transactionID: 2), dataOut: nil, dataIn: nil) }
            let (header, _) = try socket.readContainer()
            #expect(header.kind == .command && header.transactionID == 2)
            try socket.send(responseBytes(transactionID: 2), .eachWait(5))
            #expect(try next.result().code == .ok)
        }

        /// Init_Fail is a refusal, as data; a camera that never answers is a timeout naming what was awaited.
        @Test func refusalAndSilenceAtTheHandshake() throws {
            let camera = try ScriptedCamera()
            defer { camera.close() }
            #expect {
                _ = try connectScripted(camera, answer: FujiHandshake.fail(reason: 1))
            } throws: { error in
                guard case FujiWiFiError.refused(_, 1) = error else { return false }
                return true
            }
            let port = camera.port
            let connecting = Background {
                try FujiInitiator.connect(
                    host: "127.0.0.1", port: port, eventPort: nil, name: "t", timeouts: FujiTimeouts(connect: 5, read: 0.3))
            }
            let socket = try camera.accept()
            defer { socket.close() }
            #expect {
                _ = try connecting.result()
            } throws: { error in
                guard case PTPError.unanswered(let step) = error else { return false }
                return step.awaited.hasPrefix("Fuji init answer") && step.sent.hasPrefix("Fuji init request") && step.seconds == 0.3
            }
        }

        @Test(arguments: [
            ("a closed socket", [UInt8]()),
            ("half an answer", Array(cameraAnswer.prefix(30))),
            ("a lying length", [0xF0, 0xFF, 0xFF, 0x7F, 2, 0, 0, 0]),
            ("a PTP/IP packet of another type", [8, 0, 0, 0, 6, 0, 0, 0]),
        ])
        func hostileAnswers(_ name: String, _ bytes: [UInt8]) throws {
            let camera = try ScriptedCamera()
            defer { camera.close() }
            let port = camera.port
            let connecting = Background {
                try FujiInitiator.connect(host: "127.0.0.1", port: port, eventPort: nil, name: "t", timeouts: FujiTimeouts(connect: 5, read: 5))
            }
            let socket = try camera.accept()
            _ = try socket.read(82)
            try socket.send(bytes, .eachWait(5))
            socket.close()
            #expect(throws: PTPError.self, "\(name)") { _ = try connecting.result() }
        }

        /// A data container that announces 1 GiB and then stops: a bounded sink refuses it at its start, the
        /// end of the stream is a closed connection, nothing near 1 GiB is held; the transport is then
        /// unusable, by case.
        @Test func aLyingDataContainerIsBounded() throws {
            let camera = try ScriptedCamera()
            defer { camera.close() }
            let (initiator, socket) = try connectScripted(camera)
            defer { initiator.close() }
            let asked = Background {
                try initiator.transact(PTPCommand(.getObject, transactionID: 1, parameters: [1]), dataOut: nil, dataIn: BufferSink(limit: 1 << 20))
            }
            _ = try socket.readContainer()
            try socket.send(try FujiContainer.dataHeader(code: 0x1009, transactionID: 1, payloadLength: 1 << 30) + pattern(1000), .eachWait(5))
            socket.close()
            #expect {
                _ = try asked.result()
            } throws: { error in
                if case PTPError.connectionClosed = error { return true }
                return false
            }
            #expect {
                _ = try initiator.transact(PTPCommand(.getDeviceInfo, transactionID: 2), dataOut: nil, dataIn: nil)
            } throws: { error in
                if case PTPError.connectionClosed = error { return true }
                return false
            }
        }

        /// Responses for another transaction, oversized responses and commands from the camera are
        /// protocol errors, by case.
        @Test(arguments: [
            ("a response for another transaction", responseBytes(transactionID: 9)),
            ("a response of 100 bytes", [100, 0, 0, 0, 3, 0, 1, 0x20, 1, 0, 0, 0]),
            ("a command from the camera", ContainerCodec.command(PTPCommand(.getDeviceInfo, transactionID: 1))),
            ("two data containers", try! dataBytes(code: 0x1009, transactionID: 1, payload: [1]) + dataBytes(code: 0x1009, transactionID: 1, payload: [2])),
        ])
        func hostileReplies(_ name: String, _ reply: [UInt8]) throws {
            let camera = try ScriptedCamera()
            defer { camera.close() }
            let (initiator, socket) = try connectScripted(camera)
            defer {
                initiator.close()
                socket.close()
            }
            let asked = Background {
                try initiator.transact(PTPCommand(.getObject, transactionID: 1, parameters: [1]), dataOut: nil, dataIn: CollectingSink())
            }
            _ = try socket.readContainer()
            try socket.send(reply, .eachWait(5))
            #expect {
                _ = try asked.result()
            } throws: { error in
                switch error {
                case PTPError.malformed, PTPError.protocolViolation: true
                default: false
                }
            }
        }

        /// A sink that fails is told nothing more, the container is drained, the response comes back as
        /// the sink's error and the next transaction works.
        @Test func aFailingSinkLeavesTheConnectionInStep() throws {
            final class Refusing: DataSink {
                func begin(expectedLength: UInt64?) throws {}
                func write(_ chunk: UnsafeRawBufferPointer) throws { throw CancellationError() }
            }
            let camera = try ScriptedCamera()
            defer { camera.close() }
            let (initiator, socket) = try connectScripted(camera)
            defer {
                initiator.close()
                socket.close()
            }
            let first = Background {
                try initiator.transact(PTPCommand(.getObject, transactionID: 1, parameters: [1]), dataOut: nil, dataIn: Refusing())
            }
            _ = try socket.readContainer()
            try socket.send(try dataBytes(code: 0x1009, transactionID: 1, payload: pattern(3 << 20)) + responseBytes(transactionID: 1), .eachWait(5))
            #expect(throws: CancellationError.self) { _ = try first.result() }
            let second = Background {
                try initiator.transact(PTPCommand(.getDeviceInfo, transactionID: 2), dataOut: nil, dataIn: nil)
            }
            _ = try socket.readContainer()
            try socket.send(responseBytes(transactionID: 2), .eachWait(5))
            #expect(try second.result().code == .ok)
        }
    }
}
