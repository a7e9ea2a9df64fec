import Foundation
import PTP

extension Camera {
    /// The device properties the camera has: those DeviceInfo lists, or those its dialect knows of
    /// (a Canon EOS body reports its own in its event stream).
    public var propertyCodes: [DevicePropertyCode] { dialect.propertyCodes(session) }

    /// True when the properties can be described (`describeProperty`), not only listed.
    public var canDescribeProperties: Bool { dialect.canDescribeProperties(session) }

    /// One property's description (GetDevicePropDesc, or what the dialect learned of it).
    public func describeProperty(_ code: DevicePropertyCode) throws -> DevicePropertyDescription {
        try dialect.describeProperty(code, session)
    }

    /// Sets a property (SetDevicePropValue, or the dialect's own operation); the camera checks the value too.
    public func setProperty(_ code: DevicePropertyCode, to value: PTPValue) throws {
        try dialect.setProperty(code, to: value, session)
    }
}
