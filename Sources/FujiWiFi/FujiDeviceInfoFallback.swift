import PTP

/// What a Fujifilm body that answers GetDeviceInfo with an empty data phase is taken to offer (libgphoto2
/// notes an X-T4 on Wi-Fi doing so, and builds one the same way): the operations Fuji's Wi-Fi bodies
/// answer, the standard events, FUJIFILM and the model name from the init answer. A body that sends a
/// DeviceInfo is taken at its word.
public enum FujiDeviceInfoFallback {
    /// The DeviceInfo for a body named `model` (the name in its init answer).
    public static func deviceInfo(model: String) -> DeviceInfo {
        var info = DeviceInfo()
        info.standardVersion = 100
        info.vendorExtensionID = 0xE
        info.vendorExtensionVersion = 100
        info.vendorExtensionDescription = "fujifilm.co.jp: 1.0; "
        info.operationsSupported = [
            0x1001, 0x1002, 0x1003, 0x1004, 0x1005, 0x1006, 0x1007, 0x1008, 0x1009, 0x100A, 0x100B, 0x100E,
            0x1014, 0x1015, 0x1016, 0x1018, 0x101B, 0x101C,
        ].map(OperationCode.init(rawValue:))
        info.eventsSupported = [0x4002, 0x4003, 0x4004, 0x4005, 0x400D].map(EventCode.init(rawValue:))
        info.captureFormats = [ObjectFormatCode(rawValue: 0x3801)]
        info.imageFormats = [ObjectFormatCode(rawValue: 0x3801)]
        info.manufacturer = "FUJIFILM"
        info.model = model
        return info
    }
}

/// A transport that stands in `FujiDeviceInfoFallback`'s DeviceInfo for a body that answered GetDeviceInfo
/// OK with no bytes (everything else passes through). Wrapped around the trace, so the trace shows what the
/// body sent.
public final class FujiDeviceInfoSubstitute: InitiatorTransport, Sendable {
    let inner: InitiatorTransport
    let model: String

    public init(_ inner: InitiatorTransport, model: String) {
        self.inner = inner
        self.model = model
    }

    public func transact(_ command: PTPCommand, dataOut: DataSource?, dataIn: DataSink?) throws -> PTPResponse {
        guard command.code == .getDeviceInfo, let dataIn else { return try inner.transact(command, dataOut: dataOut, dataIn: dataIn) }
        let counting = CountingDeviceInfoSink(dataIn)
        let response = try inner.transact(command, dataOut: dataOut, dataIn: counting)
        if response.code == .ok, counting.count == 0 {
            let bytes = FujiDeviceInfoFallback.deviceInfo(model: model).encoded()
            try dataIn.begin(expectedLength: UInt64(bytes.count))
            try bytes.withUnsafeBytes { try dataIn.write($0) }
        }
        return response
    }

    public func setEventHandler(_ handler: (@Sendable (PTPEvent) -> Void)?) { inner.setEventHandler(handler) }
    public func close() { inner.close() }
}

/// Passes a data phase on, counting its bytes; an empty phase is not begun on the inner sink (the
/// substitute begins it with its own length).
private final class CountingDeviceInfoSink: DataSink {
    let inner: DataSink
    var count = 0
    private var announced: UInt64?
    init(_ inner: DataSink) { self.inner = inner }
    func begin(expectedLength: UInt64?) throws {
        announced = expectedLength
        if expectedLength != 0 { try inner.begin(expectedLength: expectedLength) }
    }
    func write(_ chunk: UnsafeRawBufferPointer) throws {
        if count == 0, announced == 0 { try inner.begin(expectedLength: nil) }
        count += chunk.count
        try inner.write(chunk)
    }
}
