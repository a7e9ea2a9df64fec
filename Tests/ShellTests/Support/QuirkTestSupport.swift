import Foundation
import MediaManager
import POSIX
import PTP
import TestSupport
import VirtualCamera

@testable import Shell

/// A transport that records the operations it passes on, so a test can say what was (never) sent.
final class RecordingTransport: InitiatorTransport, Sendable {
    let inner: InitiatorTransport
    private let sent = Locked<[OperationCode]>([])

    init(_ inner: InitiatorTransport) { self.inner = inner }

    var operations: [OperationCode] { sent.withLock { $0 } }
    func count(_ code: OperationCode) -> Int { operations.filter { $0 == code }.count }

    func transact(_ command: PTPCommand, dataOut: DataSource?, dataIn: DataSink?) throws -> PTPResponse {
        sent.withLock { $0.append(command.code) }
        return try inner.transact(command, dataOut: dataOut, dataIn: dataIn)
    }

    func setEventHandler(_ handler: (@Sendable (PTPEvent) -> Void)?) { inner.setEventHandler(handler) }
    func close() { inner.close() }
}

/// A quirky virtual camera serving `folder` in this process: the session, what it sent, the camera.
struct QuirkyCamera {
    let session: MediaSession
    let transport: RecordingTransport
    let camera: VirtualCamera

    init(_ quirks: Quirks, folder: String, capture: Bool = false, timeout: TimeInterval = 10) throws {
        let card = try Card(folder: folder)
        if capture { try DemoCard.enableCapture(on: card) }
        camera = VirtualCamera(card: card, quirks: quirks)
        let (initiator, responder) = InMemoryTransport.makePair(chunkSize: 1 << 20, timeout: timeout)
        let camera = self.camera
        Thread { camera.serve(responder, peer: "test") }.start()
        transport = RecordingTransport(initiator)
        let device = try Camera(transport: transport, location: "sim:\(folder)") { responder.close() }
        session = MediaSession(camera: device, url: .simulator(path: folder))
    }
}

/// An interpreter attached to a quirky camera over `card`, with its output and Ctrl-C.
func quirkyShell(
    _ quirks: Quirks, card: TemporaryFolder, downloads: TemporaryFolder, capture: Bool = false
) throws -> (Interpreter, CapturedOutput, QuirkyCamera) {
    var settings = Settings()
    settings.downloadFolder = downloads.path
    let (interpreter, output, _) = makeInterpreter(settings: settings)
    let camera = try QuirkyCamera(quirks, folder: card.path, capture: capture)
    interpreter.attach(camera.session)
    return (interpreter, output, camera)
}

/// A handle as warnings spell it: eight hex digits.
func hex8(_ value: UInt32) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: max(0, 8 - digits.count)) + digits
}
