/// Device properties of Microsoft's MTP that PTP cameras list too (a Canon EOS body lists these four beside
/// BatteryLevel in its DeviceInfo, and answers GetDevicePropDesc for them).
extension DevicePropertyCode {
    /// u8, read-only: whether Windows shows the device in its Device Stage.
    public static let mtpUseDeviceStage = DevicePropertyCode(0xD303)
    /// String, read-only: the device's name for people (a camera's model).
    public static let mtpDeviceFriendlyName = DevicePropertyCode(0xD402)
    /// String, settable: who the initiator says it is (`Unknown Initiator` until one says).
    public static let mtpSessionInitiatorInfo = DevicePropertyCode(0xD406)
    /// u32, read-only: what kind of device it is (1: a still camera).
    public static let mtpPerceivedDeviceType = DevicePropertyCode(0xD407)
}
