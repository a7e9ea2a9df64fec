import Foundation
import MediaFormats
import POSIX
import PTP
import Testing

@testable import MediaManager

/// Camera.upload over a scripted responder: SendObjectInfo then SendObject; a SendObject the camera
/// refuses deletes the object its SendObjectInfo made; nothing is sent to a camera that does not list the
/// operations.
@Suite struct CameraUploadTests {
    /// Answers OpenSession, GetDeviceInfo (listing `operations`), SendObjectInfo (handle 7) and SendObject
    /// (with `sendObjectAnswer`), and records each operation with its data length.
    final class Responder: @unchecked Sendable {
        // Safe because every stored property is a constant: `received` is a Locked box, and the transport
        // ends are used from one thread each.
        let received = Locked<[(OperationCode, [UInt32], Int)]>([])
        let initiator: InMemoryInitiator
        private let responder: InMemoryResponder

        init(operations: [OperationCode], sendObjectAnswer: ResponseCode) {
            (initiator, responder) = InMemoryTransport.makePair(chunkSize: 4096, timeout: 10)
            let responder = self.responder, received = self.received
            Thread {
                while let incoming = try? responder.receiveCommand() {
                    let c = incoming.command
                    var bytes: [UInt8] = []
                    if incoming.hasDataOut { bytes = (try? responder.receiveData(transactionID: c.transactionID, limit: 1 << 24)) ?? [] }
                    received.withLock { $0.append((c.code, c.parameters, bytes.count)) }
                    var code = ResponseCode.ok
                    var parameters: [UInt32] = []
                    switch c.code {
                    case .getDeviceInfo:
                        var info = DeviceInfo()
                        info.operationsSupported = [.getDeviceInfo, .openSession, .closeSession] + operations
                        try? responder.sendData(transactionID: c.transactionID, source: BufferSource(info.encoded()))
                    case .openSession, .closeSession, .deleteObject: break
                    case .sendObjectInfo: parameters = [c.parameter(0), c.parameter(1), 7]
                    case .sendObject: code = sendObjectAnswer
                    default: code = .operationNotSupported
                    }
                    try? responder.sendResponse(PTPResponse(code, transactionID: c.transactionID, parameters: parameters))
                }
            }.start()
        }

        var operations: [OperationCode] { received.withLock { $0.map(\.0) } }
    }

    static let all: [OperationCode] = [.sendObjectInfo, .sendObject, .deleteObject]

    @Test func aFileIsObjectInfoThenItsBytes() throws {
        let device = Responder(operations: Self.all, sendObjectAnswer: .ok)
        let camera = try Camera(transport: device.initiator, location: "test")
        defer { camera.close() }
        let handle = try camera.upload(BufferSource([UInt8](repeating: 5, count: 10_000)), name: "A.JPG", storage: 0x10001, parent: 3)
        #expect(handle == 7)
        let sent = device.received.withLock { $0.filter { $0.0 == .sendObjectInfo || $0.0 == .sendObject } }
        #expect(sent.map(\.0) == [.sendObjectInfo, .sendObject])
        #expect(sent.first?.1 == [0x10001, 3])
        #expect(sent.last?.2 == 10_000)
    }

    @Test func aRefusedSendDeletesTheObjectTheCameraMade() throws {
        let device = Responder(operations: Self.all, sendObjectAnswer: .storeFull)
        let camera = try Camera(transport: device.initiator, location: "test")
        defer { camera.close() }
        #expect(throws: PTPError.self) {
            try camera.upload(BufferSource([1, 2, 3]), name: "A.JPG", storage: 0x10001, parent: nil)
        }
        let tail = Array(device.operations.suffix(3))
        #expect(tail == [.sendObjectInfo, .sendObject, .deleteObject])
        #expect(device.received.withLock { $0.last?.1.first } == 7)
    }

    @Test func nothingIsSentToACameraWithoutTheOperations() throws {
        let device = Responder(operations: [.deleteObject], sendObjectAnswer: .ok)
        let camera = try Camera(transport: device.initiator, location: "test")
        defer { camera.close() }
        #expect(throws: CameraCapabilityError.self) {
            try camera.upload(BufferSource([1]), name: "A.JPG", storage: 0x10001, parent: nil)
        }
        #expect(throws: CameraCapabilityError.self) { try camera.makeFolder("NEW", storage: 0x10001, parent: nil) }
        #expect(!device.operations.contains(.sendObjectInfo) && !device.operations.contains(.sendObject))
    }
}
