import Foundation
import POSIX
import PTP
import TestSupport
@testable import VirtualCamera

/// A folder on disk served by a virtual camera over the in-memory transport, with an open session.
final class Harness: @unchecked Sendable {
    let folder: URL
    let card: Card
    let camera: VirtualCamera
    let session: PTPSession
    let events = EventRecorder()
    private let done = Mailbox<Void>()

    init(
        files: [String: [UInt8]] = [:], readOnly: Bool = false, uploads: UploadPolicy? = nil,
        identity: VirtualCamera.Identity = .init(), build: ((Card) -> Void)? = nil
    ) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("vcam-\(UUID().uuidString)")
        for (path, bytes) in files {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: url)
        }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        card = try Card(folder: folder.path, readOnly: readOnly, uploads: uploads)
        build?(card)
        camera = VirtualCamera(card: card, identity: identity)
        let (initiator, responder) = InMemoryTransport.makePair(chunkSize: 64 << 10, timeout: 10)
        let camera = self.camera
        let done = self.done
        Thread {
            camera.serve(responder)
            done.put(())
        }.start()
        session = PTPSession(transport: initiator)
        let events = self.events
        session.setEventHandler { events.record($0) }
        try session.open()
    }

    func path(_ relative: String) -> String { folder.appendingPathComponent(relative).path }

    /// Handle of a file by its path, via the protocol (GetObjectHandles + GetObjectInfo).
    func handle(of path: String) throws -> UInt32? {
        var parent: UInt32 = 0xFFFF_FFFF
        var found: UInt32?
        for component in path.split(separator: "/") {
            found = nil
            for h in try session.getObjectHandles(storage: 0xFFFF_FFFF, parent: parent) {
                if try session.getObjectInfo(h).filename == component {
                    found = h
                    parent = h
                    break
                }
            }
            if found == nil { return nil }
        }
        return found
    }

    /// Closes the session and waits (bounded) until the responder's loop has ended.
    func finish() -> Bool {
        session.close()
        let ended = done.take(timeout: 10) != nil
        try? FileManager.default.removeItem(at: folder)
        return ended
    }
}

/// Collects events and lets a test wait for a condition on them, with a bound.
final class EventRecorder: Sendable {
    private let recorded = LockedCondition<[PTPEvent]>([])

    var events: [PTPEvent] { recorded.withLock { $0 } }

    func record(_ event: PTPEvent) {
        recorded.change { $0.append(event) }
    }

    /// Waits until `predicate` holds for the events so far, or `timeout` passes; returns the events.
    func wait(timeout: TimeInterval = 10, until predicate: ([PTPEvent]) -> Bool) -> [PTPEvent] {
        _ = recorded.wait(until: .after(timeout)) { predicate($0) }
        return events
    }
}

final class Collector: DataSink {
    var bytes: [UInt8] = []
    func begin(expectedLength: UInt64?) throws {}
    func write(_ chunk: UnsafeRawBufferPointer) throws { bytes.append(contentsOf: chunk) }
}

func pattern(_ count: Int, seed: Int = 1) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ seed &+ $0 >> 8) }
}
