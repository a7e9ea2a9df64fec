import Foundation
import MediaManager
import POSIX
import PTP

/// What `watch` waits on: the files that appear on an open camera, each reported once. A camera that
/// announces new objects (ObjectAdded) is heard; until it has announced one, and for good when DeviceInfo
/// says it cannot, the folders a new shot goes to are listed again every `pollInterval` seconds (a few
/// requests, however big the card: many PTP/IP cameras list the event and never send it). After a
/// reconnection the whole card is compared with what was seen, so files added meanwhile are found.
final class NewFileWatch {
    private(set) var session: MediaSession
    private var queue: CameraEventQueue
    private var idle: IdleCheck
    /// The paths already reported (or on the card when the watch began).
    private var seen = Set<String>()
    private var lastPoll = monotonicSeconds()
    private var heardObjectAdded = false
    static let pollInterval: Double = 2

    /// True when the camera says it sends no ObjectAdded: it is only ever listed again.
    var neverAnnounces: Bool { !session.camera.announcesNewObjects }

    /// True while new files are looked for by listing.
    var polls: Bool { neverAnnounces || !heardObjectAdded }

    /// True once listing found a file no event announced, from a camera that says it announces them.
    private(set) var foundUnannounced = false

    init(_ session: MediaSession) throws {
        self.session = session
        queue = CameraEventQueue(session.camera)
        idle = IdleCheck(session: session)
        session.camera.watchForChanges()
        try session.catalog.ensureLoaded()
        remember(session.catalog.allFiles())
    }

    deinit { queue.stop() }

    /// Watches `session` from now on (after a reconnection): what it holds that was not seen is returned.
    func resume(on session: MediaSession) throws -> [MediaFile] {
        queue.stop()
        self.session = session
        queue = CameraEventQueue(session.camera)
        idle = IdleCheck(session: session)
        session.camera.watchForChanges()
        try session.catalog.ensureLoaded()
        return unseen(session.catalog.allFiles())
    }

    /// The new files since the last call, waiting up to a tenth of a second for the camera to say something
    /// (so Ctrl-C is heard at once). Throws what the camera's requests threw (it went away).
    func next(_ shell: any CommandContext) throws -> [MediaFile] {
        let (arrivals, dropped) = queue.take(upTo: 0.1)
        let catalog = session.catalog
        if dropped > 0 {
            // Events were lost to the queue's bound: the card itself says what is new.
            try shell.interruptibly(session) { try catalog.reload() }
            return unseen(catalog.allFiles())
        }
        let added = arrivals.filter { $0.event.code == .objectAdded }.map { $0.event.parameter(0) }
        if !arrivals.isEmpty { idle.heard() }
        if !added.isEmpty {
            heardObjectAdded = true
            try shell.interruptibly(session) { try catalog.applyAdded(added) }
            return unseen(catalog.files(among: added))
        }
        if polls, monotonicSeconds() - lastPoll >= Self.pollInterval {
            lastPoll = monotonicSeconds()
            idle.heard()
            let session = self.session
            let found = unseen(try shell.interruptibly(session) { try session.newFilesInShotFolders() })
            if !found.isEmpty && !neverAnnounces { foundUnannounced = true }
            return found
        }
        if arrivals.isEmpty { try idle.check(shell) }
        return []
    }

    private func remember(_ files: [MediaFile]) {
        for f in files where !f.isFolder { seen.insert(f.path) }
    }

    private func unseen(_ files: [MediaFile]) -> [MediaFile] {
        files.filter { !$0.isFolder && seen.insert($0.path).inserted }
    }
}
