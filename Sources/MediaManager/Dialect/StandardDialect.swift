import Foundation
import PTP

/// Standard PTP (PIMA 15740, MTP): nothing to set up, events pushed by the camera, InitiateCapture,
/// GetDevicePropDesc and SetDevicePropValue. What every camera got before dialects existed.
public final class StandardDialect: CameraDialect {
    public init() {}

    public var kind: DialectKind { .standard }
    public func didOpen(_ session: PTPSession) throws {}
    public func willClose(_ session: PTPSession) {}
    public var pollInterval: TimeInterval? { nil }
    public func poll(_ session: PTPSession) throws -> [PTPEvent] { [] }

    public func canCapture(_ session: PTPSession) -> Bool { session.supports(.initiateCapture) }

    public func capture(_ session: PTPSession) throws {
        guard session.supports(.initiateCapture) else { throw CameraCapabilityError.notOffered("capture") }
        try session.initiateCapture()
    }

    public func propertyCodes(_ session: PTPSession) -> [DevicePropertyCode] {
        session.deviceInfo.devicePropertiesSupported
    }

    public func canDescribeProperties(_ session: PTPSession) -> Bool { session.supports(.getDevicePropDesc) }

    public func describeProperty(_ code: DevicePropertyCode, _ session: PTPSession) throws -> DevicePropertyDescription {
        try Self.describe(code, session)
    }

    public func setProperty(_ code: DevicePropertyCode, to value: PTPValue, _ session: PTPSession) throws {
        try Self.set(code, to: value, session)
    }

    public var keepAliveInterval: TimeInterval? { nil }
    public func keepAlive(_ session: PTPSession) throws {}

    /// GetDevicePropDesc, checked to describe the property asked about.
    static func describe(_ code: DevicePropertyCode, _ session: PTPSession) throws -> DevicePropertyDescription {
        let bytes = try session.request(.getDevicePropDesc, [UInt32(code.rawValue)], limit: 1 << 20)
        let description = try DevicePropertyDescription(decoding: bytes)
        guard description.code == code else {
            throw PTPError.malformed(Malformation(
                "DevicePropDesc",
                .mismatch(field: "property code", expected: UInt64(code.rawValue), found: UInt64(description.code.rawValue)),
                operation: .getDevicePropDesc))
        }
        return description
    }

    /// SetDevicePropValue with the value encoded as its type.
    static func set(_ code: DevicePropertyCode, to value: PTPValue, _ session: PTPSession) throws {
        var w = PTPWriter()
        value.encode(into: &w)
        try session.execute(.setDevicePropValue, [UInt32(code.rawValue)], dataOut: BufferSource(w.bytes))
    }
}
