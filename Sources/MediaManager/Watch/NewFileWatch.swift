import POSIX
import PTP

/// What `watch` waits on: the files that appear on an open camera, each reported once. A camera that
/// announces new objects (ObjectAdded) is heard; until it has announced one, and for good when DeviceInfo
/// says it cannot, the folders a new shot goes to are listed again every `pollInterval` seconds (a few
/// requests, however big the card: many PTP/IP cameras list the event and never send it). After a
/// reconnection the whole card is compared with what was seen, so files added meanwhile are found.
public final class NewFileWatch {
    public private(set) var session: MediaSession
    private var queue: CameraEventQueue
    private var idle: IdleCheck
    /// The paths already reported (or on the card when the watch began).
    private var seen = Set<String>()
    private var lastPoll = monotonicSeconds()
    private var heardObjectAdded = false
    public static let pollInterval: Double = 2

    /// True when the camera says it sends no ObjectAdded: it is only ever listed again.
    public var neverAnnounces: Bool { !session.camera.announcesNewObjects }

    /// True while new files are looked for by listing.
    public var polls: Bool { neverAnnounces || !heardObjectAdded }

    /// True once listing found a file no event announced, from a camera that says it announces them.
    public private(set) var foundUnannounced = false

    public init(_ session: MediaSession) throws {
        self.session = session
        queue = CameraEventQueue(session.camera)
        idle = IdleCheck(session: session)
        session.camera.watchForChanges()
        try session.catalog.ensureLoaded()
        remember(session.catalog.allFiles())
    }

    deinit { queue.stop() }

    /// Watches `session` from now on (after a reconnection): what it holds that was not seen is returned.
    public func resume(on session: MediaSession) throws -> [MediaFile] {
        queue.stop()
        self.session = session
        queue = CameraEventQueue(session.camera)
        idle = IdleCheck(session: session)
        session.camera.watchForChanges()
        try session.catalog.ensureLoaded()
        return unseen(session.catalog.allFiles())
    }

    /// The new files since the last call, waiting up to a tenth of a second for the camera to say something
    /// (so Ctrl-C is heard at once). Every request to the camera runs inside `guarded` (the caller's way to
    /// make it interruptible). Throws what the camera's requests threw (it went away).
    public func next(guarded: Guard) throws -> [MediaFile] {
        let (arrivals, dropped) = queue.take(upTo: 0.1)
        let catalog = session.catalog
        if dropped > 0 {
            // Events were lost to the queue's bound: the card itself says what is new.
            try guarded { try catalog.reload() }
            return unseen(catalog.allFiles())
        }
        let added = arrivals.filter { $0.event.code == .objectAdded }.map { $0.event.parameter(0) }
        if !arrivals.isEmpty { idle.heard() }
        if !added.isEmpty {
            heardObjectAdded = true
            try guarded { try catalog.applyAdded(added) }
            return unseen(catalog.files(among: added))
        }
        if polls, monotonicSeconds() - lastPoll >= Self.pollInterval {
            lastPoll = monotonicSeconds()
            idle.heard()
            let session = self.session
            var listed: [MediaFile] = []
            try guarded { listed = try session.newFilesInShotFolders() }
            let found = unseen(listed)
            if !found.isEmpty && !neverAnnounces { foundUnannounced = true }
            return found
        }
        if arrivals.isEmpty { try idle.check(guarded: guarded) }
        return []
    }

    /// Runs requests to the camera the way the caller wants them run (interruptibly, by a shell).
    public typealias Guard = (() throws -> Void) throws -> Void

    private func remember(_ files: [MediaFile]) {
        for f in files where !f.isFolder { seen.insert(f.path) }
    }

    private func unseen(_ files: [MediaFile]) -> [MediaFile] {
        files.filter { !$0.isFolder && seen.insert($0.path).inserted }
    }
}
