import Foundation
import POSIX
import PTP

/// What a Fujifilm body said while its Wi-Fi connection was set up, and what was asked of it.
public struct FujiWiFiFacts: Equatable, Sendable {
    public var state: FujiCameraState
    public var mode: FujiFunctionMode
    /// The remote protocol version the body reported (0xDF24); nil on bodies without remote mode.
    public var remoteVersion: UInt32?
    /// How many objects the body said it offers (0xD222), when it said.
    public var objectCount: UInt32?
}

/// The function-mode handshake a Fujifilm body needs on Wi-Fi before its card can be browsed, after
/// OpenSession: the order of Fuji's app (as fudge replays it) and of libgphoto2.
/// 1. Read the event list (0xD212) until the body's state (0xDF00) is known and not "waiting for
///    access" (the user allows this host on the camera's screen), within `accessTimeout`.
/// 2. Refuse what it cannot serve: PC AutoSave, an unknown state.
/// 3. Read the remote version (0xDF24) on a body that offers remote access.
/// 4. Ask for the function mode (0xDF01, u16): remote (5) on a remote-access body, view-multiple (1) when
///    the user picked images, view-all (2) otherwise.
/// 5. Confirm the version: a remote body gets its remote version back (u32, libgphoto2's order); an
///    older one its image-explore version (0xDF21), as Fuji's app does.
/// 6. Ask for real file sizes in ObjectInfo (0xD227 = 1): on Wi-Fi they are capped near 100 KB otherwise.
/// Only properties the bodies take are set, with the sizes they check (vcam aborts on a wrong one).
public enum FujiWiFiHandshake {
    /// How often the event list is read while the body waits for the user.
    public static let accessPollInterval: TimeInterval = 0.2

    public static func run(
        _ session: PTPSession, accessTimeout: TimeInterval, pollInterval: TimeInterval = accessPollInterval
    ) throws -> FujiWiFiFacts {
        var state: FujiCameraState?
        var objectCount: UInt32?
        let deadline = Deadline.after(accessTimeout)
        while true {
            for entry in try readEvents(session) {
                switch DevicePropertyCode(entry.code) {
                case FujiProperty.cameraState: state = FujiCameraState(entry.value)
                case FujiProperty.objectCount: objectCount = entry.value
                default: break
                }
            }
            if state == nil, let value = try readValue(FujiProperty.cameraState, session) { state = FujiCameraState(value) }
            if let known = state, known != .waitingForAccess { break }
            guard !deadline.hasPassed else { throw FujiModeError.waitingForAccess(seconds: accessTimeout) }
            POSIX.sleep(until: .after(min(pollInterval, deadline.remaining)))
        }
        let mode: FujiFunctionMode
        switch state! {
        case .remoteAccess: mode = .remote
        case .multipleTransfer: mode = .viewMultiple
        case .fullAccess: mode = .viewAllImages
        case .pcAutoSave: throw FujiModeError.pcAutoSave
        case .waitingForAccess: throw FujiModeError.waitingForAccess(seconds: accessTimeout)
        case .other(let value): throw FujiModeError.unknownState(value)
        }
        let remoteVersion = mode == .remote ? try readValue(FujiProperty.remoteVersion, session) : nil
        try set(FujiProperty.functionMode, u16: mode.rawValue, session)
        if let remoteVersion {
            try set(FujiProperty.remoteVersion, u32: remoteVersion, session)
        } else if let version = try readValue(FujiProperty.imageExploreVersion, session) {
            try set(FujiProperty.imageExploreVersion, u32: version, session)
        }
        try set(FujiProperty.enableCorrectFileSize, u16: 1, session)
        if objectCount == nil { objectCount = try readValue(FujiProperty.objectCount, session) }
        return FujiWiFiFacts(state: state!, mode: mode, remoteVersion: remoteVersion, objectCount: objectCount)
    }

    /// The event list's entries (0xD212); none when the body has no such property.
    public static func readEvents(_ session: PTPSession) throws -> [FujiEventList.Entry] {
        do {
            return try FujiEventList.decode(session.request(.getDevicePropValue, [UInt32(FujiProperty.eventsList.rawValue)], limit: 64 << 10))
        } catch PTPError.response {
            return []
        }
    }

    /// A property's value as the bodies send it: 1, 2 or 4 little-endian bytes (vcam sends 4 whatever the
    /// type); nil when the body answers with no bytes or refuses the property.
    public static func readValue(_ code: DevicePropertyCode, _ session: PTPSession) throws -> UInt32? {
        let bytes: [UInt8]
        do {
            bytes = try session.request(.getDevicePropValue, [UInt32(code.rawValue)], limit: 4096)
        } catch PTPError.response {
            return nil
        }
        guard !bytes.isEmpty else { return nil }
        return bytes.prefix(4).enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
    }

    static func set(_ code: DevicePropertyCode, u16 value: UInt16, _ session: PTPSession) throws {
        try session.execute(
            .setDevicePropValue, [UInt32(code.rawValue)], dataOut: BufferSource([UInt8(value & 0xFF), UInt8(value >> 8)]))
    }

    static func set(_ code: DevicePropertyCode, u32 value: UInt32, _ session: PTPSession) throws {
        try session.execute(
            .setDevicePropValue, [UInt32(code.rawValue)], dataOut: BufferSource((0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }))
    }
}
