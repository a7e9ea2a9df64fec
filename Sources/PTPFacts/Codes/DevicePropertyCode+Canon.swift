/// Canon EOS device properties (0xD1xx). An EOS body does not list them in DeviceInfo and has no
/// GetDevicePropDesc for them: their values and allowed values come in GetEvent records, and they are set
/// with SetDevicePropValueEx. Data types as libgphoto2's `ptp-pack.c` assigns them.
extension DevicePropertyCode {
    /// u16, Canon's aperture code (e.g. 0x30 = f/5.6).
    public static let canonEOSAperture = DevicePropertyCode(0xD101)
    /// u16, Canon's shutter speed code (e.g. 0x68 = 1/125).
    public static let canonEOSShutterSpeed = DevicePropertyCode(0xD102)
    /// u16, Canon's ISO code (e.g. 0x48 = ISO 100).
    public static let canonEOSISOSpeed = DevicePropertyCode(0xD103)
    /// u8, exposure compensation in Canon's signed eighth steps.
    public static let canonEOSExpCompensation = DevicePropertyCode(0xD104)
    /// u16, the mode dial (0 P, 1 Tv, 2 Av, 3 M ...).
    public static let canonEOSAutoExposureMode = DevicePropertyCode(0xD105)
    public static let canonEOSDriveMode = DevicePropertyCode(0xD106)
    /// u16: 0 one shot, 1 AI servo, 2 AI focus, 3 manual.
    public static let canonEOSFocusMode = DevicePropertyCode(0xD108)
    /// u8: 0 auto, 1 daylight, 2 cloudy, 3 tungsten, 4 fluorescent, 5 flash ...
    public static let canonEOSWhiteBalance = DevicePropertyCode(0xD109)
    /// u16, read-only: 0 none ... 4 full ... (libgphoto2's battery level table).
    public static let canonEOSBatteryPower = DevicePropertyCode(0xD111)
    /// u32, the camera's clock (seconds since 1970).
    public static let canonEOSCameraTime = DevicePropertyCode(0xD113)
    /// string.
    public static let canonEOSOwner = DevicePropertyCode(0xD115)
    /// u32, read-only: how many more shots fit on the card.
    public static let canonEOSAvailableShots = DevicePropertyCode(0xD11B)
    /// u32: 1 card, 4 the computer (capture into its memory, fetched with TransferComplete).
    public static let canonEOSCaptureDestination = DevicePropertyCode(0xD11C)
    /// u16: where the live view goes (libgphoto2 waits for it after SetEventMode).
    public static let canonEOSEVFOutputDevice = DevicePropertyCode(0xD1B0)
    /// string, read-only.
    public static let canonEOSSerialNumber = DevicePropertyCode(0xD1AF)
    /// string.
    public static let canonEOSArtist = DevicePropertyCode(0xD1D0)
    /// string.
    public static let canonEOSCopyright = DevicePropertyCode(0xD1D1)
}
