import Foundation
import MediaManager
import POSIX

extension MediaSession {
    /// Opens the camera at `url` (see `CameraConnector`) as a session whose catalog is read on first use.
    public static func open(_ url: CameraURL, options: CameraConnector.Options = .init()) throws -> MediaSession {
        let camera = try CameraConnector.open(url, options: options)
        return MediaSession(camera: camera, url: url)
    }

    /// Opens `url` on a thread of its own, so that the caller can stop waiting: `cancellation` is asked on the
    /// caller's thread every `Camera.interruptPollInterval` seconds; once it says so, nil is returned at once
    /// and a camera that finishes opening after that is closed by that thread (the transport's timeout bounds
    /// how long it waits). `whileWaiting` runs on the caller's thread before each look.
    public static func open(
        _ url: CameraURL, options: CameraConnector.Options, until cancellation: Cancellation, whileWaiting: () -> Void = {}
    ) throws -> MediaSession? {
        let pending = PendingOpen()
        let worker = Thread { pending.deliver(Result { try MediaSession.open(url, options: options) }) }
        worker.name = "camera-open"
        worker.start()
        guard let result = pending.wait(pollingEvery: Camera.interruptPollInterval, until: cancellation, whileWaiting: whileWaiting) else { return nil }
        return try result.get()
    }
}
