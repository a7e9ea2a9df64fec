import Foundation
import POSIX
import PTP

/// A camera's live view while it runs: `next` gives each new frame as it comes (asking again every few
/// milliseconds while the body has none, as libgphoto2 does), `stop` hands the view back to the body.
public final class LiveView: Sendable {
    let session: PTPSession
    let dialect: any LiveViewDialect
    let clock: any WaitClock
    /// The pause between two asks while the body has no new frame.
    static let retryPause = 0.005

    init(session: PTPSession, dialect: any LiveViewDialect, clock: any WaitClock = MonotonicClock()) throws {
        self.session = session
        self.dialect = dialect
        self.clock = clock
        try dialect.start(session)
    }

    /// The next frame's JPEG. Throws `LiveViewError.noFrame` when none came in `timeout` seconds, and
    /// `CancellationError` once `cancellation` says so.
    public func next(timeout: Double = 3, cancellation: Cancellation = .never) throws -> [UInt8] {
        let started = clock.now()
        while true {
            try cancellation.check()
            if let jpeg = try dialect.frame(session) { return jpeg }
            guard clock.now() - started < timeout else { throw LiveViewError.noFrame(seconds: timeout) }
            clock.pause(Self.retryPause)
        }
    }

    public func stop() { dialect.stop(session) }
}

extension Camera {
    /// Starts the camera's live view; `CameraCapabilityError.notOffered("live view")` for a camera that
    /// has none (standard PTP defines none).
    public func startLiveView() throws -> LiveView {
        guard let dialect = dialect.liveView(session) else { throw CameraCapabilityError.notOffered("live view") }
        return try LiveView(session: session, dialect: dialect)
    }
}
