import Foundation
import TestSupport
import Testing
@testable import PTP

/// A scripted responder for session tests: answers from a closure on its own thread.
final class ScriptedResponder: @unchecked Sendable {
    let transport: InMemoryResponder
    let thread: Thread

    init(_ transport: InMemoryResponder, answer: @escaping @Sendable (IncomingCommand, InMemoryResponder) throws -> PTPResponse) {
        self.transport = transport
        thread = Thread {
            while let incoming = try? transport.receiveCommand() {
                guard let response = try? answer(incoming, transport) else { break }
                try? transport.sendResponse(response)
            }
        }
        thread.start()
    }
}

@Suite(.tags(.process), .notInFastRun) struct InMemorySessionTests {
    func makeSession(_ answer: @escaping @Sendable (IncomingCommand, InMemoryResponder) throws -> PTPResponse) -> (PTPSession, ScriptedResponder) {
        let (initiator, responder) = InMemoryTransport.makePair(chunkSize: 1000, timeout: 5)
        return (PTPSession(transport: initiator), ScriptedResponder(responder, answer: answer))
    }

    /// libgphoto2's order: OpenSession (transaction 0), then GetDeviceInfo inside the session (1), and every
    /// later transaction counted on from there, as devices that number strictly from the start expect.
    @Test func opensTheSessionFirstThenReadsDeviceInfoAndNumbersOnFromThere() throws {
        let seen = LockedBox<[String]>([])
        let (session, _) = makeSession { incoming, responder in
            seen.mutate { $0.append("\(incoming.command.code) \(incoming.command.transactionID)") }
            if incoming.command.code == .getDeviceInfo {
                try responder.sendData(transactionID: incoming.command.transactionID, source: BufferSource(DeviceInfo().encoded()))
            }
            return PTPResponse(.ok, transactionID: incoming.command.transactionID)
        }
        try session.open()
        try session.execute(.getNumObjects)
        try session.execute(.getNumObjects)
        #expect(seen.value == ["OpenSession 0", "GetDeviceInfo 1", "GetNumObjects 2", "GetNumObjects 3"])
        session.close()
    }

    /// Debian's uMTP-Responder 1.3.10 refuses GetDeviceInfo outside a session and, after a client that
    /// vanished, answers OpenSession with SessionAlreadyOpen: both open.
    @Test func opensADeviceThatRefusesDeviceInfoOutsideASessionAndKeptItsSession() throws {
        let inSession = LockedBox(false)
        let (session, _) = makeSession { incoming, responder in
            let id = incoming.command.transactionID
            switch incoming.command.code {
            case .openSession:
                inSession.mutate { $0 = true }
                return PTPResponse(.sessionAlreadyOpen, transactionID: id)
            case .getDeviceInfo:
                guard inSession.value else { return PTPResponse(.sessionNotOpen, transactionID: id) }
                var info = DeviceInfo()
                info.model = "kept session"
                try responder.sendData(transactionID: id, source: BufferSource(info.encoded()))
                return PTPResponse(.ok, transactionID: id)
            default:
                return PTPResponse(.ok, transactionID: id)
            }
        }
        try session.open()
        #expect(session.deviceInfo.model == "kept session")
        session.close()
    }

    @Test func nonOKResponseBecomesATypedError() throws {
        let (session, _) = makeSession { incoming, _ in
            PTPResponse(.invalidObjectHandle, transactionID: incoming.command.transactionID)
        }
        expectResponse(.invalidObjectHandle, to: .getObjectInfo) {
            try session.getObjectInfo(7)
        }
        session.close()
    }

    @Test func streamedDataArrivesWholeAndABoundIsEnforced() throws {
        let payload = (0..<100_003).map { UInt8(truncatingIfNeeded: $0 * 7) }
        let (session, _) = makeSession { incoming, responder in
            try responder.sendData(transactionID: incoming.command.transactionID, source: BufferSource(payload))
            return PTPResponse(.ok, transactionID: incoming.command.transactionID)
        }
        #expect(try session.request(.getObject, [1]) == payload)
        // A sink that refuses the size still leaves the connection usable for the next transaction.
        #expect(throws: PTPError.dataTooLarge(limit: 10, announced: 100_003)) {
            try session.request(.getObject, [1], limit: 10)
        }
        #expect(try session.request(.getObject, [1]).count == payload.count)
        session.close()
    }

    @Test func responseForAnotherTransactionIsAProtocolError() throws {
        let (session, _) = makeSession { incoming, _ in
            PTPResponse(.ok, transactionID: incoming.command.transactionID &+ 5)
        }
        #expect(throws: PTPError.self) { try session.execute(.getNumObjects) }
        session.close()
    }

    @Test func closedPeerIsAClearError() throws {
        let (initiator, responder) = InMemoryTransport.makePair()
        responder.close()
        let session = PTPSession(transport: initiator)
        do {
            try session.execute(.getNumObjects)
            Issue.record("no error")
        } catch let error as PTPError {
            if case .connectionClosed = error {} else { Issue.record("unexpected \(error)") }
        }
    }
}

