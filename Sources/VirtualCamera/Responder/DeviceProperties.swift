import Foundation
import PTP

/// The camera's work mode, emulating a drone's: shooting, or giving access to the card's media.
public enum WorkMode: UInt8, Sendable {
    case shoot = 0
    case download = 1
}

/// The device properties the virtual camera exposes (GetDevicePropDesc, GetDevicePropValue): the camera's
/// `CameraSettings`, and the session's work mode.
enum DeviceProperties {
    static let supported: [DevicePropertyCode] = CameraSettings.supported + [.workMode]

    static func description(_ code: DevicePropertyCode, mode: WorkMode, settings: CameraSettings) -> DevicePropertyDescription? {
        if code == .workMode {
            return DevicePropertyDescription(
                code: code, dataType: .uint8, writable: true, factoryDefault: .uint8(WorkMode.download.rawValue),
                current: .uint8(mode.rawValue),
                form: .enumeration([.uint8(WorkMode.shoot.rawValue), .uint8(WorkMode.download.rawValue)]))
        }
        return settings.description(of: code)
    }

    static func describe(_ code: DevicePropertyCode, mode: WorkMode, settings: CameraSettings) -> [UInt8]? {
        description(code, mode: mode, settings: settings)?.encoded()
    }

    static func value(_ code: DevicePropertyCode, mode: WorkMode, settings: CameraSettings) -> [UInt8]? {
        guard let description = description(code, mode: mode, settings: settings) else { return nil }
        var w = PTPWriter()
        description.current.encode(into: &w)
        return w.bytes
    }
}
