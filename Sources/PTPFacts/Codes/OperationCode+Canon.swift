/// Canon EOS operations (the 0x91xx range), as libgphoto2's `ptp.h` names them. An EOS body lists the
/// ones it has in DeviceInfo; the standard operations go on working beside them.
extension OperationCode {
    /// EOS GetStorageIDs: the stores, as the standard operation answers.
    public static let canonEOSGetStorageIDs = OperationCode(0x9101)
    /// EOS GetStorageInfo(storage): a Canon-packed StorageInfo.
    public static let canonEOSGetStorageInfo = OperationCode(0x9102)
    public static let canonEOSGetDeviceInfoEx = OperationCode(0x9108)
    /// EOS GetObjectInfoEx(storage, folder, max): a folder's entries in one request.
    public static let canonEOSGetObjectInfoEx = OperationCode(0x9109)
    public static let canonEOSGetThumbEx = OperationCode(0x910A)
    /// RemoteRelease (no parameters): fires the shutter (older bodies); response parameter 0 is a result
    /// (0 OK, 1 no focus, 3 mirror up, 7 card full, 8 card read-only).
    public static let canonEOSRemoteRelease = OperationCode(0x910F)
    /// SetDevicePropValueEx: data is u32 size, u32 property, then the value (integers as u32).
    public static let canonEOSSetDevicePropValueEx = OperationCode(0x9110)
    public static let canonEOSGetRemoteMode = OperationCode(0x9113)
    /// SetRemoteMode(mode): 1 puts the body under the computer's control (EOS M bodies use 0x15).
    public static let canonEOSSetRemoteMode = OperationCode(0x9114)
    /// SetEventMode(mode): 1 makes the body queue its changes for GetEvent.
    public static let canonEOSSetEventMode = OperationCode(0x9115)
    /// GetEvent: the queued changes, as records (`CanonEOSEvents`); the body sends no PTP events.
    public static let canonEOSGetEvent = OperationCode(0x9116)
    /// TransferComplete(handle): after a download of an object the camera asked to transfer.
    public static let canonEOSTransferComplete = OperationCode(0x9117)
    /// PCHDDCapacity(free, cluster, flag): tells the body the computer has room (capture to the computer).
    public static let canonEOSPCHDDCapacity = OperationCode(0x911A)
    public static let canonEOSSetUILock = OperationCode(0x911B)
    public static let canonEOSResetUILock = OperationCode(0x911C)
    /// KeepDeviceOn: resets the body's auto-power-off timer (libgphoto2 sends it while it waits).
    public static let canonEOSKeepDeviceOn = OperationCode(0x911D)
    /// RequestDevicePropValue(property): the value comes as a GetEvent record.
    public static let canonEOSRequestDevicePropValue = OperationCode(0x9127)
    /// RemoteReleaseOn(button, 0): 1 half press (focus), 2 full press, 3 both (EOS M).
    public static let canonEOSRemoteReleaseOn = OperationCode(0x9128)
    /// RemoteReleaseOff(button): releases what RemoteReleaseOn pressed.
    public static let canonEOSRemoteReleaseOff = OperationCode(0x9129)
    /// GetViewFinderData(0x00200000, 0, 0): the newest live-view frame, while EVFOutputDevice has the PC bit
    /// (2), as blocks of u32 length (its 8 header bytes included), u32 type, data; type 1 is a JPEG (11 on
    /// newer bodies; 9 in movie mode). A body with no new frame yet answers 0xA102 or DeviceBusy.
    public static let canonEOSGetViewFinderData = OperationCode(0x9153)
    public static let canonEOSAfCancel = OperationCode(0x9160)

    /// Names of the vendor operations, for traces and messages (Canon's 0x91xx, Nikon's 0x90Cx).
    static let vendorNames: [UInt16: String] = [
        0x9101: "EOS_GetStorageIDs", 0x9102: "EOS_GetStorageInfo", 0x9108: "EOS_GetDeviceInfoEx",
        0x9109: "EOS_GetObjectInfoEx", 0x910A: "EOS_GetThumbEx", 0x910F: "EOS_RemoteRelease",
        0x9110: "EOS_SetDevicePropValueEx", 0x9113: "EOS_GetRemoteMode", 0x9114: "EOS_SetRemoteMode",
        0x9115: "EOS_SetEventMode", 0x9116: "EOS_GetEvent", 0x9117: "EOS_TransferComplete",
        0x911A: "EOS_PCHDDCapacity", 0x911B: "EOS_SetUILock", 0x911C: "EOS_ResetUILock",
        0x911D: "EOS_KeepDeviceOn", 0x9127: "EOS_RequestDevicePropValue", 0x9128: "EOS_RemoteReleaseOn",
        0x9129: "EOS_RemoteReleaseOff", 0x9153: "EOS_GetViewFinderData", 0x9160: "EOS_AfCancel",
        0x90C0: "Nikon_InitiateCaptureRecInSdram", 0x90C1: "Nikon_AfDrive", 0x90C2: "Nikon_ChangeCameraMode",
        0x90C3: "Nikon_DelImageSDRAM", 0x90C7: "Nikon_GetEvent", 0x90C8: "Nikon_DeviceReady",
        0x90CA: "Nikon_GetVendorPropCodes", 0x90CB: "Nikon_AfCaptureSDRAM", 0x9201: "Nikon_StartLiveView",
        0x9202: "Nikon_EndLiveView", 0x9203: "Nikon_GetLiveViewImg", 0x9207: "Nikon_InitiateCaptureRecInMedia",
    ]
}

/// Canon's own response codes.
extension ResponseCode {
    /// GetViewFinderData before a live-view frame is ready (or with live view off).
    public static let canonEOSNotReady = ResponseCode(0xA102)
}
