import Foundation
import PTP

/// The camera's work mode, emulating a drone's: shooting, or giving access to the card's media.
public enum WorkMode: UInt8, Sendable {
    case shoot = 0
    case download = 1
}

/// The device properties the virtual camera exposes, with their descriptions (GetDevicePropDesc).
enum DeviceProperties {
    static let supported: [DevicePropertyCode] = [.batteryLevel, .dateTime, .workMode]

    static func describe(_ code: DevicePropertyCode, mode: WorkMode) -> [UInt8]? {
        var w = PTPWriter()
        switch code {
        case .batteryLevel:
            w.uint16(code.rawValue)
            w.uint16(DataTypeCode.uint8.rawValue)
            w.uint8(0)  // get only
            w.uint8(100)  // factory default
            w.uint8(87)  // current
            w.uint8(1)  // range form
            w.uint8(0)
            w.uint8(100)
            w.uint8(1)
        case .dateTime:
            w.uint16(code.rawValue)
            w.uint16(DataTypeCode.string.rawValue)
            w.uint8(0)
            w.string("")
            w.string(PTPDateTime.format(Date()))
            w.uint8(0)
        case .workMode:
            w.uint16(code.rawValue)
            w.uint16(DataTypeCode.uint8.rawValue)
            w.uint8(1)  // get/set
            w.uint8(WorkMode.download.rawValue)
            w.uint8(mode.rawValue)
            w.uint8(2)  // enumeration form
            w.uint16(2)
            w.uint8(WorkMode.shoot.rawValue)
            w.uint8(WorkMode.download.rawValue)
        default:
            return nil
        }
        return w.bytes
    }

    static func value(_ code: DevicePropertyCode, mode: WorkMode) -> [UInt8]? {
        var w = PTPWriter()
        switch code {
        case .batteryLevel: w.uint8(87)
        case .dateTime: w.string(PTPDateTime.format(Date()))
        case .workMode: w.uint8(mode.rawValue)
        default: return nil
        }
        return w.bytes
    }
}
