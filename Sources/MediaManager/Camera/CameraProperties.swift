import Foundation
import PTP

extension Camera {
    /// The device properties the camera lists in DeviceInfo.
    public var propertyCodes: [DevicePropertyCode] { session.deviceInfo.devicePropertiesSupported }

    /// One property's description (GetDevicePropDesc).
    public func describeProperty(_ code: DevicePropertyCode) throws -> DevicePropertyDescription {
        let bytes = try session.request(.getDevicePropDesc, [UInt32(code.rawValue)], limit: 1 << 20)
        let description = try DevicePropertyDescription(decoding: bytes)
        guard description.code == code else {
            throw PTPError.malformed("DevicePropDesc for 0x\(String(code.rawValue, radix: 16)) describes 0x\(String(description.code.rawValue, radix: 16))")
        }
        return description
    }

    /// Sets a property (SetDevicePropValue); the camera checks the value too.
    public func setProperty(_ code: DevicePropertyCode, to value: PTPValue) throws {
        var w = PTPWriter()
        value.encode(into: &w)
        try session.execute(.setDevicePropValue, [UInt32(code.rawValue)], dataOut: BufferSource(w.bytes))
    }
}
