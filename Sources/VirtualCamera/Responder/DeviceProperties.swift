import Foundation
import PTP

/// The device properties the virtual camera exposes, with their descriptions (GetDevicePropDesc).
enum DeviceProperties {
    static let supported: [DevicePropertyCode] = [.batteryLevel, .dateTime]

    static func describe(_ code: DevicePropertyCode) -> [UInt8]? {
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
        default:
            return nil
        }
        return w.bytes
    }

    static func value(_ code: DevicePropertyCode) -> [UInt8]? {
        var w = PTPWriter()
        switch code {
        case .batteryLevel: w.uint8(87)
        case .dateTime: w.string(PTPDateTime.format(Date()))
        default: return nil
        }
        return w.bytes
    }
}
