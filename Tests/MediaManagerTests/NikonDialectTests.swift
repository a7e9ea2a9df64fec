import Foundation
import POSIX
import PTP
import TestSupport
import Testing

@testable import MediaManager

/// Nikon's capture waits with DeviceReady until the body is ready, a bounded time on an injected clock,
/// and retries a capture the body answers DeviceBusy; ChangeCameraMode(1) goes first, once.
@Suite struct NikonDialectTests {
    /// A Nikon body that answers DeviceBusy to the first `busyCaptures` captures and the first
    /// `busyReadies` DeviceReady requests, and records every operation.
    final class Body: @unchecked Sendable {
        // Safe because `received` is a Locked box and the transport ends are used from one thread each.
        let received = Locked<[OperationCode]>([])
        let initiator: InMemoryInitiator
        private let responder: InMemoryResponder

        init(busyCaptures: Int, busyReadies: Int) {
            (initiator, responder) = InMemoryTransport.makePair(timeout: 10)
            let responder = self.responder, received = self.received
            Thread {
                var captures = busyCaptures, readies = busyReadies
                while let incoming = try? responder.receiveCommand() {
                    let c = incoming.command
                    received.withLock { $0.append(c.code) }
                    var code = ResponseCode.ok
                    switch c.code {
                    case .getDeviceInfo:
                        var info = DeviceInfo()
                        info.vendorExtensionID = 0xA
                        info.manufacturer = "Nikon Corporation"
                        info.operationsSupported = [
                            .getDeviceInfo, .openSession, .closeSession, .initiateCapture, .nikonChangeCameraMode,
                            .nikonGetEvent, .nikonDeviceReady,
                        ]
                        try? responder.sendData(transactionID: c.transactionID, source: BufferSource(info.encoded()))
                    case .nikonGetEvent:
                        try? responder.sendData(transactionID: c.transactionID, source: BufferSource(NikonEvents.encode([])))
                    case .initiateCapture:
                        if captures > 0 { captures -= 1; code = .deviceBusy }
                    case .nikonDeviceReady:
                        if readies > 0 { readies -= 1; code = .deviceBusy }
                    default: break
                    }
                    try? responder.sendResponse(PTPResponse(code, transactionID: c.transactionID))
                }
            }.start()
        }

        var operations: [OperationCode] { received.withLock { $0 } }
    }

    @Test func aCaptureIsRetriedWhileBusyThenWaitsUntilTheBodyIsReady() throws {
        let body = Body(busyCaptures: 2, busyReadies: 3)
        let session = PTPSession(transport: body.initiator)
        try session.open()
        defer { session.close() }
        #expect(CameraDialects.choose(for: session.deviceInfo).kind == .nikon)
        let clock = ManualWaitClock()
        let dialect = NikonDialect(clock: clock, readyTimeout: 10)
        try dialect.capture(session)
        let ops = body.operations.filter { $0 != .getDeviceInfo && $0 != .openSession }
        #expect(ops == [.nikonChangeCameraMode, .initiateCapture, .initiateCapture, .initiateCapture,
                        .nikonDeviceReady, .nikonDeviceReady, .nikonDeviceReady, .nikonDeviceReady])
        // A second capture does not put the body under control again.
        try dialect.capture(session)
        #expect(body.operations.filter { $0 == .nikonChangeCameraMode }.count == 1)
    }

    @Test func aBodyThatStaysBusyEndsTheWaitAtTheTimeout() throws {
        let body = Body(busyCaptures: 0, busyReadies: 1_000_000)
        let session = PTPSession(transport: body.initiator)
        try session.open()
        defer { session.close() }
        let dialect = NikonDialect(clock: ManualWaitClock(), readyTimeout: 2)
        #expect(throws: DialectError.stayedBusy(seconds: 2)) { try dialect.capture(session) }
        // 2 s in pauses of 0.05 s: about 40 requests, not a million.
        #expect(body.operations.filter { $0 == .nikonDeviceReady }.count <= 42)
    }
}
