import PTP

/// A camera's work mode where it has one, like a drone's: shooting, or giving access to the card.
public enum CameraMode: String, Sendable, CaseIterable {
    case shoot
    case download

    var rawByte: UInt8 { self == .shoot ? 0 : 1 }
}

extension Camera {
    /// True when the camera has a work mode the media manager knows how to switch (the virtual camera's).
    public var hasWorkMode: Bool {
        session.deviceInfo.devicePropertiesSupported.contains(.workMode) && session.deviceInfo.manufacturer == "mediashell"
    }

    /// True when the camera is in shoot mode, where it gives no files (DeviceBusy, as a drone's camera does):
    /// a download then switches it to download mode and back.
    public var isShooting: Bool { hasWorkMode && (try? workMode()) == .shoot }

    /// The current work mode, nil when the camera has none.
    public func workMode() throws -> CameraMode? {
        guard hasWorkMode else { return nil }
        let bytes = try session.request(.getDevicePropValue, [UInt32(DevicePropertyCode.workMode.rawValue)], limit: 16)
        switch bytes.first {
        case 0: return .shoot
        case 1: return .download
        case let value?:
            throw PTPError.malformed(
                Malformation("DevicePropValue", .invalidValue(field: "work mode", value: UInt64(value)), operation: .getDevicePropValue))
        case nil:
            throw PTPError.malformed(
                Malformation("DevicePropValue", .truncated(field: "u8", offset: 0, total: 0), operation: .getDevicePropValue))
        }
    }

    public func setWorkMode(_ mode: CameraMode) throws {
        guard hasWorkMode else { throw PTPError.response(.devicePropNotSupported, operation: .setDevicePropValue, transaction: nil) }
        try session.execute(
            .setDevicePropValue, [UInt32(DevicePropertyCode.workMode.rawValue)], dataOut: BufferSource([mode.rawByte]))
    }
}
