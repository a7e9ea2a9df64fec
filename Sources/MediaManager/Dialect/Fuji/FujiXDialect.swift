import Foundation
import POSIX
import PTP

/// Fujifilm X bodies on Wi-Fi (`fuji:` URLs; chosen by the connector, not from DeviceInfo, since the same
/// bodies speak plain PTP/MTP over USB). After OpenSession the function-mode handshake
/// (`FujiWiFiHandshake`); changes are polled from the event list property (0xD212), as Fuji's app does,
/// and also taken from the event socket once capture mode opened it; capture only in the remote mode,
/// with InitiateOpenCapture sent once (bodies and vcam take it once per connection) before InitiateCapture.
public final class FujiXDialect: CameraDialect {
    /// How long the body may wait for the user to allow this host on its screen.
    public let accessTimeout: TimeInterval
    /// Connects the body's live-view socket (nil: a link without one).
    let openLiveView: (@Sendable () throws -> any FujiLiveViewChannel)?
    private let state = Locked(State())

    private struct State {
        var facts: FujiWiFiFacts?
        var openCaptureSent = false
    }

    /// - Parameter openLiveView: connects the body's live-view socket once capture mode is open; nil when
    ///   the link has none (live view is then not offered).
    public init(accessTimeout: TimeInterval = 30, openLiveView: (@Sendable () throws -> any FujiLiveViewChannel)? = nil) {
        self.accessTimeout = accessTimeout
        self.openLiveView = openLiveView
    }

    /// What the handshake learned (nil before `didOpen`).
    public var facts: FujiWiFiFacts? { state.withLock { $0.facts } }

    public var kind: DialectKind { .fujiX }

    public func didOpen(_ session: PTPSession) throws {
        let facts = try FujiWiFiHandshake.run(session, accessTimeout: accessTimeout)
        state.withLock { $0.facts = facts }
    }

    public func willClose(_ session: PTPSession) {}

    /// Fuji's app reads the event list about once a second while it shows the camera.
    public var pollInterval: TimeInterval? { 1 }

    public func poll(_ session: PTPSession) throws -> [PTPEvent] {
        FujiEventList.events(try FujiWiFiHandshake.readEvents(session))
    }

    public func canCapture(_ session: PTPSession) -> Bool {
        facts?.state == .remoteAccess && session.supports(.initiateCapture)
    }

    public func capture(_ session: PTPSession) throws {
        guard let facts, facts.state == .remoteAccess else {
            throw FujiModeError.noRemoteCapture(state: self.facts?.state ?? .other(0))
        }
        guard session.supports(.initiateCapture) else { throw CameraCapabilityError.notOffered("capture") }
        try openCapture(session)
        try session.initiateCapture()
    }

    /// Sends InitiateOpenCapture, once per connection (when the body lists it): capture, the event socket
    /// and live view all need the mode it opens. Not marked sent when refused, so a later call asks again.
    func openCapture(_ session: PTPSession) throws {
        let first = state.withLock { state -> Bool in
            defer { state.openCaptureSent = true }
            return !state.openCaptureSent
        }
        guard first, session.supports(.initiateOpenCapture) else { return }
        do {
            try session.execute(.initiateOpenCapture, [0, 0])
        } catch {
            state.withLock { $0.openCaptureSent = false }
            throw error
        }
    }

    /// Live view from the body's live-view socket, on a link that has one and a body in its remote mode
    /// (the one that opens capture mode; the browsing modes refuse InitiateOpenCapture).
    public func liveView(_ session: PTPSession) -> (any LiveViewDialect)? {
        guard let openLiveView, facts?.state == .remoteAccess, session.supports(.initiateOpenCapture) else { return nil }
        return FujiLiveView(dialect: self, open: openLiveView)
    }

    public func propertyCodes(_ session: PTPSession) -> [DevicePropertyCode] {
        session.deviceInfo.devicePropertiesSupported
    }

    public func canDescribeProperties(_ session: PTPSession) -> Bool { session.supports(.getDevicePropDesc) }

    public func describeProperty(_ code: DevicePropertyCode, _ session: PTPSession) throws -> DevicePropertyDescription {
        try StandardDialect.describe(code, session)
    }

    public func setProperty(_ code: DevicePropertyCode, to value: PTPValue, _ session: PTPSession) throws {
        try StandardDialect.set(code, to: value, session)
    }

    public var keepAliveInterval: TimeInterval? { nil }
    public func keepAlive(_ session: PTPSession) throws {}
}
