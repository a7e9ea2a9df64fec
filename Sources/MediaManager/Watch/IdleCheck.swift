import POSIX
import PTP

/// How a command that waits on events notices a camera that went away without a word: after a few quiet
/// seconds, one cheap request (GetDeviceInfo), which throws once the camera no longer answers.
public final class IdleCheck {
    private let session: MediaSession
    private var last = monotonicSeconds()
    public static let interval: Double = 3

    public init(session: MediaSession) { self.session = session }

    /// The camera said something: it is there.
    public func heard() { last = monotonicSeconds() }

    /// After `interval` quiet seconds, asks the camera for its DeviceInfo inside `guarded`.
    public func check(guarded: NewFileWatch.Guard) throws {
        guard monotonicSeconds() - last >= Self.interval else { return }
        last = monotonicSeconds()
        let session = self.session
        try guarded { _ = try session.camera.session.getDeviceInfo() }
    }
}
