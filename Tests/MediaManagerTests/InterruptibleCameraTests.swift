import Foundation
import POSIX
import PTP
import Synchronization
import Testing
import VirtualCamera

@testable import MediaManager

/// `Camera.interruptibly`: Ctrl-C (here a flag) stops a listing between requests with the session still
/// usable, and ends a request the device never answers by closing the connection.
@Suite struct InterruptibleCameraTests {
    /// Passes transactions on; `beforeSending` sees each command first (to raise the flag at a chosen one).
    final class WatchedTransport: InitiatorTransport, @unchecked Sendable {
        let inner: InitiatorTransport
        let beforeSending: @Sendable (PTPCommand) -> Void
        let sent = Mutex<[OperationCode]>([])

        init(_ inner: InitiatorTransport, beforeSending: @escaping @Sendable (PTPCommand) -> Void) {
            self.inner = inner
            self.beforeSending = beforeSending
        }

        func transact(_ command: PTPCommand, dataOut: DataSource?, dataIn: DataSink?) throws -> PTPResponse {
            sent.withLock { $0.append(command.code) }
            beforeSending(command)
            return try inner.transact(command, dataOut: dataOut, dataIn: dataIn)
        }

        func setEventHandler(_ handler: (@Sendable (PTPEvent) -> Void)?) { inner.setEventHandler(handler) }
        func close() { inner.close() }
    }

    /// Ctrl-C as a flag a test raises.
    final class Flag: Sendable {
        private let value = Mutex(false)
        var isRaised: Bool { value.withLock { $0 } }
        func set(_ raised: Bool) { value.withLock { $0 = raised } }
    }

    /// A card with two folders of two files each.
    static func card() throws -> (folder: String, remove: () -> Void) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("msh-interrupt-\(UUID().uuidString)").path
        for folder in ["100A", "101B"] {
            try FileManager.default.createDirectory(atPath: root + "/DCIM/" + folder, withIntermediateDirectories: true)
            for name in ["X1.JPG", "X2.JPG"] {
                try Data("picture".utf8).write(to: URL(fileURLWithPath: root + "/DCIM/\(folder)/\(name)"))
            }
        }
        return (root, { try? FileManager.default.removeItem(atPath: root) })
    }

    /// A camera over the in-memory transport with `quirks`; the flag goes up when `raiseAt` says so.
    static func camera(
        _ folder: String, quirks: Quirks = [], raiseAt: @escaping @Sendable (PTPCommand) -> Bool
    ) throws -> (Camera, WatchedTransport, Flag) {
        let virtual = VirtualCamera(card: try Card(folder: folder), quirks: quirks)
        // A long receive timeout: only the interrupt can end a stalled request within this test.
        let (initiator, responder) = InMemoryTransport.makePair(timeout: 300)
        Thread { virtual.serve(responder, peer: "test") }.start()
        let flag = Flag()
        let transport = WatchedTransport(initiator) { command in
            if raiseAt(command) { flag.set(true) }
        }
        let camera = try Camera(transport: transport, location: "test") { responder.close() }
        return (camera, transport, flag)
    }

    @Test func anInterruptBetweenRequestsStopsTheListingAndKeepsTheSession() throws {
        let card = try Self.card()
        defer { card.remove() }
        // Raised as the first folder below the root is asked for: that request is answered, the next is not sent.
        let armed = Flag()
        armed.set(true)
        let (camera, transport, flag) = try Self.camera(card.folder) { command in
            guard armed.isRaised, command.code == .getObjectPropList, command.parameter(0) != 0 else { return false }
            armed.set(false)
            return true
        }
        defer { camera.close() }
        // Folder by folder, so that there is a request after the first folder's (one request reads a
        // whole card where the device can).
        camera.setTreeListingWanted(false)
        let catalog = MediaCatalog(camera: camera)
        #expect(throws: CameraInterruption.betweenRequests) {
            try camera.interruptibly(cancellation: Cancellation(when: { flag.isRaised })) { try catalog.reload() }
        }
        let listings = transport.sent.withLock { $0 }.filter { $0 == .getObjectPropList }.count
        #expect(listings == 2, "the root, then one folder; no request after the interrupt")
        #expect(catalog.state == .reset)
        // The session is in step: the next reload reads everything.
        flag.set(false)
        try camera.interruptibly(cancellation: Cancellation(when: { flag.isRaised })) { try catalog.reload() }
        #expect(catalog.allFiles().count == 4)
    }

    @Test func aRequestTheDeviceNeverAnswersIsEndedByClosingTheConnection() throws {
        let card = try Self.card()
        defer { card.remove() }
        // stall-listing: the whole card's list (and the first folder below the root) is never answered;
        // the flag goes up as it is asked.
        let (camera, _, flag) = try Self.camera(card.folder, quirks: [.stallListing]) { command in
            command.code == .getObjectPropList && (command.parameter(0) != 0 || command.parameter(4) != 1)
        }
        defer { camera.close() }
        let catalog = MediaCatalog(camera: camera)
        #expect(throws: CameraInterruption.connectionClosed) {
            try camera.interruptibly(cancellation: Cancellation(when: { flag.isRaised })) { try catalog.reload() }
        }
        #expect(throws: PTPError.self) { try camera.storages() }
    }

    @Test func alreadyInterruptedSendsNothing() throws {
        let card = try Self.card()
        defer { card.remove() }
        let (camera, transport, _) = try Self.camera(card.folder) { _ in false }
        defer { camera.close() }
        let before = transport.sent.withLock { $0.count }
        #expect(throws: CameraInterruption.betweenRequests) {
            try camera.interruptibly(cancellation: { let stop = Cancellation(); stop.cancel(); return stop }()) { try camera.storages() }
        }
        #expect(transport.sent.withLock { $0.count } == before)
    }

    @Test func workThatEndsNormallyReturnsItsResult() throws {
        let card = try Self.card()
        defer { card.remove() }
        let (camera, _, _) = try Self.camera(card.folder) { _ in false }
        defer { camera.close() }
        let stores = try camera.interruptibly(cancellation: .never) { try camera.storages() }
        #expect(stores.count == 1)
    }
}
