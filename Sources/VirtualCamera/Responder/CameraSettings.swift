import POSIX
import Foundation
import PTP

/// The virtual camera's settings, shared by all its sessions as a real camera's are: battery (which drains a
/// percent per shot), clock (kept as an offset from this computer's, so setting it moves it), image size,
/// white balance, ISO, exposure time, f-number and still capture mode, with the values real cameras allow.
public final class CameraSettings: Sendable {
    private struct State {
        var battery: UInt8 = 87
        var clockOffset: TimeInterval = 0
        var values: [DevicePropertyCode: PTPValue] = CameraSettings.defaults
    }
    private let state = Locked(State())

    public init() {}

    /// The settable properties with their factory defaults and allowed values (what DeviceInfo lists).
    static let choices: [(code: DevicePropertyCode, type: DataTypeCode, allowed: [PTPValue])] = [
        (.imageSize, .string, ["6000x4000", "4000x3000", "3000x2000", "1920x1080"].map(PTPValue.string)),
        // Automatic, daylight, fluorescent, tungsten, flash (PIMA 15740 table 23).
        (.whiteBalance, .uint16, [0x0002, 0x0004, 0x0005, 0x0006, 0x0007].map(PTPValue.uint16)),
        // f/2.8 to f/11, in hundredths.
        (.fNumber, .uint16, [280, 400, 560, 800, 1100].map(PTPValue.uint16)),
        // 1/1000 s to 1 s, in tenths of a millisecond.
        (.exposureTime, .uint32, [10, 20, 40, 80, 167, 333, 10000].map(PTPValue.uint32)),
        (.exposureIndex, .uint16, [100, 200, 400, 800, 1600, 3200].map(PTPValue.uint16)),
        // Normal, burst, timelapse.
        (.captureMode, .uint16, [0x0001, 0x0002, 0x0003].map(PTPValue.uint16)),
    ]

    static let defaults: [DevicePropertyCode: PTPValue] = [
        .imageSize: .string("6000x4000"), .whiteBalance: .uint16(0x0002), .fNumber: .uint16(560),
        .exposureTime: .uint32(40), .exposureIndex: .uint16(100), .captureMode: .uint16(0x0001),
    ]

    public static let supported: [DevicePropertyCode] = [.batteryLevel, .dateTime] + choices.map(\.code)

    /// The camera's clock now.
    public var clock: Date { Date().addingTimeInterval(state.withLock { $0.clockOffset }) }

    public var batteryLevel: UInt8 { state.withLock { $0.battery } }

    /// One shot's worth of battery; the level stays at 1 % at least, so the camera keeps working.
    public func drainForShot() {
        state.withLock { $0.battery = max(1, $0.battery - 1) }
    }

    func description(of code: DevicePropertyCode) -> DevicePropertyDescription? {
        switch code {
        case .batteryLevel:
            return DevicePropertyDescription(
                code: code, dataType: .uint8, writable: false, factoryDefault: .uint8(100),
                current: .uint8(batteryLevel), form: .range(minimum: .uint8(0), maximum: .uint8(100), step: .uint8(1)))
        case .dateTime:
            return DevicePropertyDescription(
                code: code, dataType: .string, writable: true, factoryDefault: .string(""),
                current: .string(PTPDateTime.format(clock)))
        default:
            guard let choice = Self.choices.first(where: { $0.code == code }),
                let current = state.withLock({ $0.values[code] })
            else { return nil }
            return DevicePropertyDescription(
                code: code, dataType: choice.type, writable: true, factoryDefault: Self.defaults[code] ?? current,
                current: current, form: .enumeration(choice.allowed))
        }
    }

    /// Why a SetDevicePropValue is refused.
    enum Refusal: Error { case notSupported, readOnly, invalidValue }

    /// Sets a property from SetDevicePropValue's data; the value must have the property's type and form.
    func set(_ code: DevicePropertyCode, bytes: [UInt8]) throws(Refusal) {
        guard let description = description(of: code) else { throw .notSupported }
        guard description.writable else { throw .readOnly }
        guard let value = description.value(decoding: bytes), description.allows(value) else { throw .invalidValue }
        if code == .dateTime {
            guard case .string(let text) = value, let date = PTPDateTime.parse(text) else { throw .invalidValue }
            state.withLock { $0.clockOffset = date.timeIntervalSinceNow }
            return
        }
        state.withLock { $0.values[code] = value }
    }
}
