import Foundation
import POSIX
import PTP

/// Nikon bodies, as libgphoto2 speaks to them: events read with Nikon's GetEvent (0x90C7), polled while
/// something listens (bodies on Wi-Fi send few on the event channel; those that do are heard too); a
/// capture put under the computer's control first (ChangeCameraMode(1), called SetControlMode elsewhere)
/// where offered, fired onto the card where the body can (InitiateCaptureRecInMedia, else the standard
/// InitiateCapture), else into its memory (InitiateCaptureRecInSdram: the shot is then an object of its
/// own, outside the card's folders), retried while the body says DeviceBusy, then DeviceReady (0x90C8)
/// asked until the body is ready again. Properties are the standard ones.
public final class NikonDialect: CameraDialect {
    private struct State {
        /// ChangeCameraMode(1) was sent: it is undone on close.
        var controlMode = false
    }

    private let state = Locked(State())
    private let clock: any WaitClock
    /// How long a capture waits for the body to be ready again (libgphoto2 allows long exposures).
    let readyTimeout: Double
    /// The pause between two DeviceReady (or two busy capture) requests.
    static let busyPause: Double = 0.05
    /// How many times a capture the body refuses as busy is sent again.
    static let busyRetries = 100

    public init(clock: any WaitClock = MonotonicClock(), readyTimeout: Double = 60) {
        self.clock = clock
        self.readyTimeout = readyTimeout
    }

    public var kind: DialectKind { .nikon }
    public func didOpen(_ session: PTPSession) throws {}

    public func willClose(_ session: PTPSession) {
        if state.withLock({ $0.controlMode }) { _ = try? session.execute(.nikonChangeCameraMode, [0]) }
    }

    public var pollInterval: TimeInterval? { 0.5 }
    static let roundsPerPoll = 8

    /// GetEvent until it has nothing more (at most `roundsPerPoll` times); ObjectAddedInSDRAM is an
    /// ObjectAdded, CaptureCompleteRecInSdram a CaptureComplete.
    public func poll(_ session: PTPSession) throws -> [PTPEvent] {
        var events: [PTPEvent] = []
        for _ in 0..<Self.roundsPerPoll {
            let decoded = NikonEvents.decode(try session.request(.nikonGetEvent, limit: 1 << 20))
            if decoded.isEmpty { break }
            events += decoded.map { event in
                switch event.code {
                case .nikonObjectAddedInSDRAM: PTPEvent(.objectAdded, parameters: [event.parameter(0) == 0 ? 0xFFFF_0001 : event.parameter(0)])
                case .nikonCaptureCompleteRecInSdram: PTPEvent(.captureComplete)
                default: event
                }
            }
        }
        return events
    }

    public func canCapture(_ session: PTPSession) -> Bool {
        session.supports(.nikonInitiateCaptureRecInMedia) || session.supports(.initiateCapture)
            || session.supports(.nikonInitiateCaptureRecInSdram)
    }

    public func capture(_ session: PTPSession) throws {
        if session.supports(.nikonChangeCameraMode) && !state.withLock({ $0.controlMode }) {
            do {
                try session.execute(.nikonChangeCameraMode, [1])
            } catch PTPError.response(.nikonChangeCameraModeFailed, _, _) {
                // Seen on bodies already under control (libgphoto2 goes on too).
            }
            state.withLock { $0.controlMode = true }
        }
        try retryingWhileBusy {
            if session.supports(.nikonInitiateCaptureRecInMedia) {
                try session.execute(.nikonInitiateCaptureRecInMedia, [0xFFFF_FFFF, 0])
            } else if session.supports(.initiateCapture) {
                try session.initiateCapture()
            } else if session.supports(.nikonInitiateCaptureRecInSdram) {
                try session.execute(.nikonInitiateCaptureRecInSdram, [0xFFFF_FFFF])
            } else {
                throw CameraCapabilityError.notOffered("capture")
            }
        }
        try waitUntilReady(session)
    }

    /// Runs `fire` again while the body answers DeviceBusy, a few times.
    private func retryingWhileBusy(_ fire: () throws -> Void) throws {
        var tries = 0
        while true {
            do {
                return try fire()
            } catch let error as PTPError where error.responseCode == .deviceBusy {
                tries += 1
                guard tries < Self.busyRetries else { throw error }
                clock.pause(Self.busyPause)
            }
        }
    }

    /// DeviceReady until it answers OK (bounded by `readyTimeout`); a body without it is taken as ready.
    func waitUntilReady(_ session: PTPSession) throws {
        guard session.supports(.nikonDeviceReady) else { return }
        let started = clock.now()
        while true {
            do {
                try session.execute(.nikonDeviceReady)
                return
            } catch PTPError.response(.deviceBusy, _, _) {
                guard clock.now() - started < readyTimeout else { throw DialectError.stayedBusy(seconds: readyTimeout) }
                clock.pause(Self.busyPause)
            }
        }
    }

    public func propertyCodes(_ session: PTPSession) -> [DevicePropertyCode] { session.deviceInfo.devicePropertiesSupported }
    public func canDescribeProperties(_ session: PTPSession) -> Bool { session.supports(.getDevicePropDesc) }

    public func describeProperty(_ code: DevicePropertyCode, _ session: PTPSession) throws -> DevicePropertyDescription {
        try StandardDialect.describe(code, session)
    }

    public func setProperty(_ code: DevicePropertyCode, to value: PTPValue, _ session: PTPSession) throws {
        try StandardDialect.set(code, to: value, session)
    }

    public var keepAliveInterval: TimeInterval? { nil }
    public func keepAlive(_ session: PTPSession) throws {}

    public func liveView(_ session: PTPSession) -> (any LiveViewDialect)? {
        session.supports(.nikonStartLiveView) && session.supports(.nikonGetLiveViewImg) ? NikonLiveView(dialect: self) : nil
    }
}
