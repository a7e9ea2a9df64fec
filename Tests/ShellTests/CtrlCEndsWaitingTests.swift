import Foundation
import MediaManager
import PTP
import TestSupport
import Testing
import VirtualCamera

@testable import Shell

/// Ctrl-C is how `events` and `watch` are ended (issue 48, item 4): whatever the command was doing when it
/// came (waiting for events, asking a quiet camera whether it is still there, downloading a new file), the
/// command ends as "ended", its status is success, and the rest of the line or script runs.
@Suite struct CtrlCEndsWaitingTests {
    /// The idle check (a GetDeviceInfo after 3 quiet seconds) waits behind another caller's request; Ctrl-C
    /// then stops it before it is sent, which the command took for an interrupted command (exit 130).
    @Test func ctrlCWhileEventsAsksAQuietCameraEndsEvents() throws {
        let card = try makeCardFolder(bigFileSize: 1_000)
        let (session, transport) = try heldSession(card: try Card(folder: card.path))
        defer { session.close() }
        let shell = LiveShell()
        shell.interpreter.attach(session)
        shell.start("events")
        #expect(shell.line { $0.hasPrefix("waiting for the camera's events") } != nil)

        // Another caller's request holds the session's turn, so the idle check has to queue behind it.
        transport.arm()
        Thread { _ = try? session.camera.session.getStorageIDs() }.start()
        #expect(transport.held.take(timeout: 10) != nil, "the other request never reached the camera")
        let queued = session.camera.session.waitForCallers(timeout: 10) { $0.interactive + $0.background >= 1 }
        #expect(queued, "the idle check never asked the camera")

        let status = shell.stop()
        transport.release()
        #expect(status == .success)
        #expect(shell.line { $0 == "events: ended" } != nil, "\(shell.seen.all)")
        #expect(shell.output.errors.all.isEmpty, "\(shell.output.errors.all)")
    }

    /// Ctrl-C while `watch --fetch` downloads a new file: the file stays as .part (said), and the watch
    /// ends as it does between files, not as a failure that stops the script.
    @Test func ctrlCDuringAWatchDownloadEndsTheWatch() throws {
        let home = try TemporaryFolder("msh-watch-stop")
        let card = try makeCardFolder(bigFileSize: 1_000)
        var settings = Settings()
        settings.downloadFolder = home.path + "/down"
        settings.rateLimit = 1 << 20
        let shell = LiveShell(settings: settings)
        shell.interpreter.environment["XDG_DATA_HOME"] = home.path + "/data"
        try shell.interpreter.open(.folder(path: card.path))
        shell.start("watch --fetch")
        #expect(shell.line { $0.hasPrefix("watching for new files") } != nil)
        // Written beside, then renamed in: whole when it appears; at 1 MB/s it takes 8 s to download.
        try card.write("big.tmp", patternBytes(8_000_000, seed: 40))
        try FileManager.default.moveItem(atPath: card.path("big.tmp"), toPath: card.path("DCIM/101MEDIA/BIG_0200.MP4"))
        #expect(shell.line { $0.hasPrefix("new /DCIM/101MEDIA/BIG_0200.MP4") } != nil, "\(shell.seen.all)")

        #expect(shell.stop() == .success, "\(shell.output.errors.all)")
        #expect(shell.line { $0 == "watch: ended" } != nil, "\(shell.seen.all)")
        #expect(shell.output.errors.all.contains { $0.hasPrefix("watch: interrupted") }, "\(shell.output.errors.all)")
    }
}

/// A transport that, once armed, holds each GetStorageIDs until `release()`: another caller's slow request.
final class HoldingTransport: InitiatorTransport, Sendable {
    let inner: InitiatorTransport
    /// Gets one item when a request is being held.
    let held = Mailbox<Void>()
    private let released = Mailbox<Void>()
    private let armed = LockedBox(false)

    init(_ inner: InitiatorTransport) { self.inner = inner }

    func arm() { armed.set(true) }
    func release() { released.put(()) }

    func transact(_ command: PTPCommand, dataOut: DataSource?, dataIn: DataSink?) throws -> PTPResponse {
        if command.code == .getStorageIDs && armed.value {
            held.put(())
            _ = released.take(timeout: 30)
        }
        return try inner.transact(command, dataOut: dataOut, dataIn: dataIn)
    }

    func setEventHandler(_ handler: (@Sendable (PTPEvent) -> Void)?) { inner.setEventHandler(handler) }
    func close() { inner.close() }
}

/// A virtual camera serving `card` in this process, reached through a `HoldingTransport`.
func heldSession(card: Card) throws -> (MediaSession, HoldingTransport) {
    let camera = VirtualCamera(card: card)
    let (initiator, responder) = InMemoryTransport.makePair(chunkSize: 1 << 20, timeout: 10)
    Thread { camera.serve(responder, peer: "test") }.start()
    let holding = HoldingTransport(initiator)
    let device = try Camera(transport: holding, location: "sim:") { responder.close() }
    return (MediaSession(camera: device, url: .simulator(path: nil)), holding)
}
