/// Nikon operations (0x90Cx and 0x92xx), as libgphoto2's `ptp.h` names them.
extension OperationCode {
    /// InitiateCaptureRecInSdram(0xFFFFFFFF): takes a picture into the camera's memory (not the card);
    /// ObjectAddedInSDRAM (0xC101) or ObjectAdded then names it.
    public static let nikonInitiateCaptureRecInSdram = OperationCode(0x90C0)
    public static let nikonAfDrive = OperationCode(0x90C1)
    /// ChangeCameraMode(1) (called SetControlMode elsewhere): puts the body under the computer's control,
    /// which some bodies (Nikon 1, Coolpix) need before a capture.
    public static let nikonChangeCameraMode = OperationCode(0x90C2)
    public static let nikonDelImageSDRAM = OperationCode(0x90C3)
    /// GetEvent: the queued events as data (u16 count, then u16 code and u32 parameter each); Nikon bodies
    /// over PTP/IP send few events on the event channel, so this is polled.
    public static let nikonGetEvent = OperationCode(0x90C7)
    /// DeviceReady: OK once the body is ready again after a capture, DeviceBusy (0x2019) until then.
    public static let nikonDeviceReady = OperationCode(0x90C8)
    public static let nikonGetVendorPropCodes = OperationCode(0x90CA)
    public static let nikonAfCaptureSDRAM = OperationCode(0x90CB)
    /// StartLiveView: the body starts live view (DeviceReady answers DeviceBusy until it has).
    public static let nikonStartLiveView = OperationCode(0x9201)
    public static let nikonEndLiveView = OperationCode(0x9202)
    /// GetLiveViewImg: the newest live-view frame, a header of the body's own (64 to 384 bytes) and a JPEG;
    /// NotLiveView (0xA00B) when live view is off, DeviceBusy while no frame is ready.
    public static let nikonGetLiveViewImg = OperationCode(0x9203)
    /// InitiateCaptureRecInMedia(0xFFFFFFFF, 0): takes a picture onto the card (newer bodies).
    public static let nikonInitiateCaptureRecInMedia = OperationCode(0x9207)
}

/// Nikon's own event codes (0xC1xx), delivered through its GetEvent.
extension EventCode {
    /// A shot waits in the camera's memory: parameter 0 is its handle.
    public static let nikonObjectAddedInSDRAM = EventCode(0xC101)
    public static let nikonCaptureCompleteRecInSdram = EventCode(0xC102)
}

/// Nikon's own response codes.
extension ResponseCode {
    public static let nikonOutOfFocus = ResponseCode(0xA002)
    public static let nikonChangeCameraModeFailed = ResponseCode(0xA003)
    /// GetLiveViewImg while live view is off.
    public static let nikonNotLiveView = ResponseCode(0xA00B)
}
