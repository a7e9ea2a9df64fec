import Foundation
import POSIX
import PTP

/// Canon EOS bodies (USB and PTP/IP), as libgphoto2 speaks to them: SetRemoteMode(1) and SetEventMode(1)
/// once open; no PTP events, but a queue of change records read with GetEvent (0x9116), polled while
/// something listens; the shutter fired by RemoteReleaseOn/Off (half then full press) or, on bodies that
/// lack them, RemoteRelease; the EOS properties (0xD1xx) learned from the records and set with
/// SetDevicePropValueEx; KeepDeviceOn while waiting.
public final class CanonEOSDialect: CameraDialect {
    private struct State {
        /// Each EOS property's current value as the body packed it, and the values it allows.
        var values: [DevicePropertyCode: [UInt8]] = [:]
        var allowed: [DevicePropertyCode: [UInt32]] = [:]
        /// A capture fired and no file reported yet: the first new file ends it (CaptureComplete).
        var captureInFlight = false
        /// Properties this program set (and already keeps the value of): the body's record of the new value
        /// is still a change to announce.
        var setHere: Set<DevicePropertyCode> = []
        /// The body answered KeepDeviceOn with an error once: it is not sent again.
        var keepAliveRefused = false
    }

    private let state = Locked(State())
    public init() {}

    public var kind: DialectKind { .canonEOS }

    /// How often GetEvent is asked while something listens (libgphoto2 backs off to 200 ms while it waits
    /// for a shot; a second is enough for `watch` and keeps an idle Wi-Fi link quiet).
    public var pollInterval: TimeInterval? { 0.5 }

    /// How many GetEvent requests one poll makes at most: the body is asked again while it answers records
    /// (as libgphoto2 does), never endlessly.
    static let roundsPerPoll = 8
    /// The largest GetEvent answer accepted.
    static let answerLimit = 4 << 20

    public func didOpen(_ session: PTPSession) throws {
        if session.supports(.canonEOSSetRemoteMode) {
            try session.execute(.canonEOSSetRemoteMode, [1])
        }
        if session.supports(.canonEOSSetEventMode) {
            try session.execute(.canonEOSSetEventMode, [1])
        }
        // The first answers carry every property and its allowed values.
        _ = try poll(session)
    }

    public func willClose(_ session: PTPSession) {
        if session.supports(.canonEOSSetEventMode) { _ = try? session.execute(.canonEOSSetEventMode, [0]) }
    }

    public func poll(_ session: PTPSession) throws -> [PTPEvent] {
        var events: [PTPEvent] = []
        for _ in 0..<Self.roundsPerPoll {
            let bytes = try session.request(.canonEOSGetEvent, limit: Self.answerLimit)
            let records = CanonEOSEvent.decode(bytes)
            if records.isEmpty { break }
            events += apply(records)
        }
        return events
    }

    /// Learns properties from `records` and turns the rest into standard events.
    func apply(_ records: [CanonEOSEvent]) -> [PTPEvent] {
        state.withLock { state in
            var events: [PTPEvent] = []
            for record in records {
                switch record {
                case .objectAdded(let object):
                    events.append(PTPEvent(.objectAdded, parameters: [object.handle]))
                    if state.captureInFlight && object.format != .association {
                        state.captureInFlight = false
                        events.append(PTPEvent(.captureComplete))
                    }
                case .objectChanged(let object):
                    events.append(PTPEvent(.objectInfoChanged, parameters: [object.handle]))
                case .objectRemoved(let handle):
                    events.append(PTPEvent(.objectRemoved, parameters: [handle]))
                case .propertyValue(let code, let value):
                    let old = state.values.updateValue(value, forKey: code)
                    let setHere = state.setHere.remove(code) != nil
                    if let old, old != value || setHere {
                        events.append(PTPEvent(.devicePropChanged, parameters: [UInt32(code.rawValue)]))
                    }
                case .allowedValues(let code, _, let values):
                    state.allowed[code] = values
                case .storesChanged(let type, let storage):
                    switch type {
                    case CanonEOSEvent.storeAddedType: events.append(PTPEvent(.storeAdded, parameters: [storage]))
                    case CanonEOSEvent.storeRemovedType: events.append(PTPEvent(.storeRemoved, parameters: [storage]))
                    // Free space after a shot: shown by `events`, no reason to read the card again.
                    default: events.append(PTPEvent(EventCode(UInt16(truncatingIfNeeded: type)), parameters: [storage]))
                    }
                case .transferRequested(let handle, _, _, _):
                    events.append(PTPEvent(EventCode(UInt16(truncatingIfNeeded: CanonEOSEvent.requestObjectTransferType)), parameters: [handle]))
                case .cameraStatus(let status):
                    events.append(PTPEvent(EventCode(UInt16(truncatingIfNeeded: CanonEOSEvent.cameraStatusChangedType)), parameters: [status]))
                case .other(let type, let payload):
                    var parameters: [UInt32] = []
                    var r = PTPReader(payload)
                    while parameters.count < 3, let p = try? r.uint32() { parameters.append(p) }
                    events.append(PTPEvent(EventCode(UInt16(truncatingIfNeeded: type)), parameters: parameters))
                }
            }
            return events
        }
    }

    // MARK: Capture

    public func canCapture(_ session: PTPSession) -> Bool {
        (session.supports(.canonEOSRemoteReleaseOn) && session.supports(.canonEOSRemoteReleaseOff))
            || session.supports(.canonEOSRemoteRelease)
    }

    /// Half press, full press, release both (an EOS M presses both at once, as libgphoto2 does); or
    /// RemoteRelease, whose result says why the body refused.
    public func capture(_ session: PTPSession) throws {
        state.withLock { $0.captureInFlight = true }
        do {
            if session.supports(.canonEOSRemoteReleaseOn) && session.supports(.canonEOSRemoteReleaseOff) {
                if session.deviceInfo.model.hasPrefix("Canon EOS M") {
                    try session.execute(.canonEOSRemoteReleaseOn, [3, 0])
                    try session.execute(.canonEOSRemoteReleaseOff, [3])
                } else {
                    try session.execute(.canonEOSRemoteReleaseOn, [1, 0])
                    try session.execute(.canonEOSRemoteReleaseOn, [2, 0])
                    try session.execute(.canonEOSRemoteReleaseOff, [2])
                    try session.execute(.canonEOSRemoteReleaseOff, [1])
                }
            } else if session.supports(.canonEOSRemoteRelease) {
                let result = try session.execute(.canonEOSRemoteRelease).parameter(0)
                guard result == 0 else { throw DialectError.releaseRefused(result: result) }
            } else {
                throw CameraCapabilityError.notOffered("capture")
            }
        } catch {
            state.withLock { $0.captureInFlight = false }
            throw error
        }
    }

    // MARK: Properties

    /// The EOS properties the body reported, in code order, then those DeviceInfo lists that it can
    /// describe the standard way.
    public func propertyCodes(_ session: PTPSession) -> [DevicePropertyCode] {
        let eos = state.withLock { state in
            state.values.filter { CanonEOSProperties.type(of: $0.key, valueLength: $0.value.count) != nil }.keys.sorted { $0.rawValue < $1.rawValue }
        }
        let standard = session.supports(.getDevicePropDesc) ? session.deviceInfo.devicePropertiesSupported : []
        return eos + standard.filter { !eos.contains($0) }
    }

    public func canDescribeProperties(_ session: PTPSession) -> Bool { true }

    public func describeProperty(_ code: DevicePropertyCode, _ session: PTPSession) throws -> DevicePropertyDescription {
        let known = state.withLock { state in state.values[code].map { ($0, state.allowed[code]) } }
        guard let (bytes, allowed) = known else {
            guard session.supports(.getDevicePropDesc), session.deviceInfo.devicePropertiesSupported.contains(code) else {
                throw DialectError.unknownProperty(code)
            }
            return try StandardDialect.describe(code, session)
        }
        guard let description = CanonEOSProperties.describe(code, value: bytes, allowed: allowed) else {
            // Bytes this table cannot read: the standard description where the body has one.
            guard session.supports(.getDevicePropDesc), session.deviceInfo.devicePropertiesSupported.contains(code) else {
                throw DialectError.unknownProperty(code)
            }
            return try StandardDialect.describe(code, session)
        }
        return description
    }

    /// SetDevicePropValueEx: u32 size, u32 property, the value (an integer in a u32 slot, a string with its
    /// NUL); the body reports the new value in its next records, and it is kept here at once.
    public func setProperty(_ code: DevicePropertyCode, to value: PTPValue, _ session: PTPSession) throws {
        guard state.withLock({ $0.values[code] != nil }) else {
            guard session.deviceInfo.devicePropertiesSupported.contains(code) else { throw DialectError.unknownProperty(code) }
            try StandardDialect.set(code, to: value, session)
            return
        }
        let packed = CanonEOSProperties.pack(value)
        var w = PTPWriter()
        w.uint32(UInt32(8 + packed.count))
        w.uint32(UInt32(code.rawValue))
        w.raw(packed)
        try session.execute(.canonEOSSetDevicePropValueEx, dataOut: BufferSource(w.bytes))
        state.withLock { state in
            state.values[code] = packed
            state.setHere.insert(code)
        }
    }

    // MARK: Live view

    public func liveView(_ session: PTPSession) -> (any LiveViewDialect)? {
        session.supports(.canonEOSGetViewFinderData) ? CanonEOSLiveView() : nil
    }

    // MARK: Keep-alive

    public var keepAliveInterval: TimeInterval? { 20 }

    /// KeepDeviceOn where DeviceInfo lists it; a body that lists it but refuses it (petabyt/vcam's answer
    /// OperationNotSupported) is not asked again.
    public func keepAlive(_ session: PTPSession) throws {
        guard session.supports(.canonEOSKeepDeviceOn), !state.withLock({ $0.keepAliveRefused }) else { return }
        do {
            try session.execute(.canonEOSKeepDeviceOn)
        } catch let error as PTPError where error.responseCode != nil {
            state.withLock { $0.keepAliveRefused = true }
        }
    }
}
