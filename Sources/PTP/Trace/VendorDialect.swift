/// The vendor dialect a device speaks, as its DeviceInfo says (vendor extension id, or the manufacturer
/// where PTP/IP cameras give 6, Microsoft's): which table names its operations in a trace.
public enum VendorDialect: String, Sendable {
    case canon, nikon, fujifilm, sony, standard

    /// The dialect of a device that describes itself with `info`.
    public init(_ info: DeviceInfo) {
        let maker = info.manufacturer.lowercased()
        switch info.vendorExtensionID {
        case 0x0B: self = .canon
        case 0x0A: self = .nikon
        case 0x0E: self = .fujifilm
        case 0x11: self = .sony
        default:
            if maker.hasPrefix("canon") {
                self = .canon
            } else if maker.hasPrefix("nikon") {
                self = .nikon
            } else if maker.hasPrefix("fujifilm") || maker.hasPrefix("fuji") {
                self = .fujifilm
            } else if maker.hasPrefix("sony") {
                self = .sony
            } else {
                self = .standard
            }
        }
    }

    /// The operation's name in this dialect: the vendor's own for its codes (0x9000 and up), else the
    /// standard's (MTP's and Android's included); "Operation 0xXXXX" when nobody named it.
    public func name(of operation: OperationCode) -> String {
        let code = operation.rawValue
        if code >= 0x9000 {
            let vendor: [UInt16: String]? = switch self {
            case .canon: VendorOperationNames.canon
            case .nikon: VendorOperationNames.nikon
            case .fujifilm: VendorOperationNames.fujifilm
            case .sony: VendorOperationNames.sony
            case .standard: nil
            }
            if let name = vendor?[code] { return name }
            if let name = VendorOperationNames.mtp[code], operation.description.hasPrefix("Operation ") { return name }
        }
        return operation.description
    }
}

/// Names of vendor operations, by code, as libgphoto2's ptp.h lists them (facts: the codes and the names
/// the vendors' SDKs give them), for traces. Canon's table holds the EOS operations (0x91xx) and the older
/// PowerShot ones (0x90xx).
enum VendorOperationNames {
    static let canon: [UInt16: String] = [
        0x9001: "GetPartialObjectInfo", 0x9002: "SetObjectArchive", 0x9003: "KeepDeviceOn", 0x9004: "LockDeviceUI",
        0x9005: "UnlockDeviceUI", 0x9006: "GetObjectHandleByName", 0x9008: "InitiateReleaseControl",
        0x9009: "TerminateReleaseControl", 0x900A: "TerminatePlaybackMode", 0x900B: "ViewfinderOn",
        0x900C: "ViewfinderOff", 0x900D: "DoAeAfAwb", 0x900E: "GetCustomizeSpec", 0x900F: "GetCustomizeItemInfo",
        0x9010: "GetCustomizeData", 0x9011: "SetCustomizeData", 0x9012: "GetCaptureStatus", 0x9013: "CheckEvent",
        0x9014: "FocusLock", 0x9015: "FocusUnlock", 0x9016: "GetLocalReleaseParam", 0x9017: "SetLocalReleaseParam",
        0x9018: "AskAboutPcEvf", 0x9019: "SendPartialObject", 0x901A: "InitiateCaptureInMemory",
        0x901B: "GetPartialObjectEx", 0x901C: "SetObjectTime", 0x901D: "GetViewfinderImage",
        0x901E: "GetObjectAttributes", 0x901F: "ChangeUSBProtocol", 0x9020: "GetChanges", 0x9021: "GetObjectInfoEx",
        0x9022: "InitiateDirectTransfer", 0x9023: "TerminateDirectTransfer", 0x9024: "SendObjectInfoByPath",
        0x9025: "SendObjectByPath", 0x9026: "InitiateDirectTransferEx", 0x9027: "GetAncillaryObjectHandles",
        0x9028: "GetTreeInfo", 0x9029: "GetTreeSize", 0x902A: "NotifyProgress", 0x902B: "NotifyCancelAccepted",
        0x902D: "GetDirectory", 0x9030: "SetPairingInfo",
        0x9031: "GetPairingInfo", 0x9032: "DeletePairingInfo", 0x9033: "GetMACAddress", 0x9034: "SetDisplayMonitor",
        0x9035: "PairingComplete", 0x9036: "GetWirelessMAXChannel", 0x9068: "GetWebServiceSpec",
        0x9069: "GetWebServiceData", 0x906A: "SetWebServiceData", 0x906B: "DeleteWebServiceData",
        0x906C: "GetRootCertificateSpec", 0x906D: "GetRootCertificateData", 0x906E: "SetRootCertificateData",
        0x906F: "DeleteRootCertificateData", 0x9075: "GetGpsMobilelinkObjectInfo", 0x9076: "SendGpsTagInfo",
        0x9077: "GetTranscodeApproxSize", 0x9078: "RequestTranscodeStart", 0x9079: "RequestTranscodeCancel",
        0x9086: "SetRemoteShootingMode", 0x9087: "GetDebugLog", 0x9088: "SetModeDialDisable",
        0x9089: "Clear_CCAPI_UsageCount", 0x908A: "SetMetaProperty", 0x9101: "GetStorageIDs",
        0x9102: "GetStorageInfo", 0x9103: "GetObjectInfo", 0x9104: "GetObject", 0x9105: "DeleteObject",
        0x9106: "FormatStore", 0x9107: "GetPartialObject", 0x9108: "GetDeviceInfoEx", 0x9109: "GetObjectInfoEx",
        0x910A: "GetThumbEx", 0x910B: "SendPartialObject", 0x910C: "SetObjectAttributes", 0x910D: "GetObjectTime",
        0x910E: "SetObjectTime", 0x910F: "RemoteRelease", 0x9110: "SetDevicePropValueEx", 0x9113: "GetRemoteMode",
        0x9114: "SetRemoteMode", 0x9115: "SetEventMode", 0x9116: "GetEvent", 0x9117: "TransferComplete",
        0x9118: "CancelTransfer", 0x9119: "ResetTransfer", 0x911A: "PCHDDCapacity", 0x911B: "SetUILock",
        0x911C: "ResetUILock", 0x911D: "KeepDeviceOn", 0x911E: "SetNullPacketMode", 0x911F: "UpdateFirmware",
        0x9120: "TransferCompleteDT", 0x9121: "CancelTransferDT", 0x9122: "SetWftProfile", 0x9123: "GetWftProfile",
        0x9124: "SetProfileToWft", 0x9125: "BulbStart", 0x9126: "BulbEnd", 0x9127: "RequestDevicePropValue",
        0x9128: "RemoteReleaseOn", 0x9129: "RemoteReleaseOff", 0x912A: "RegistBackgroundImage",
        0x912B: "ChangePhotoStudioMode", 0x912C: "GetPartialObjectEx", 0x9130: "ResetMirrorLockupState",
        0x9131: "PopupBuiltinFlash", 0x9132: "EndGetPartialObjectEx", 0x9133: "MovieSelectSWOn",
        0x9134: "MovieSelectSWOff", 0x9135: "GetCTGInfo", 0x9136: "GetLensAdjust", 0x9137: "SetLensAdjust",
        0x9138: "ReadyToSendMusic", 0x9139: "CreateHandle", 0x913A: "SendPartialObjectEx",
        0x913B: "EndSendPartialObjectEx", 0x913C: "SetCTGInfo", 0x913D: "SetRequestOLCInfoGroup",
        0x913E: "SetRequestRollingPitchingLevel", 0x913F: "GetCameraSupport", 0x9140: "SetRating",
        0x9141: "RequestInnerDevelopStart", 0x9142: "RequestInnerDevelopParamChange",
        0x9143: "RequestInnerDevelopEnd", 0x9144: "GpsLoggingDataMode", 0x9145: "GetGpsLogCurrentHandle",
        0x9146: "SetImageRecoveryData", 0x9147: "GetImageRecoveryList", 0x9148: "FormatImageRecoveryData",
        0x9149: "GetPresetLensAdjustParam", 0x914A: "GetRawDispImage", 0x914B: "SaveImageRecoveryData",
        0x914C: "RequestBLE", 0x914D: "DrivePowerZoom", 0x914F: "GetIptcData", 0x9150: "SetIptcData",
        0x9151: "InitiateViewfinder", 0x9152: "TerminateViewfinder", 0x9153: "GetViewFinderData", 0x9154: "DoAf",
        0x9155: "DriveLens", 0x9156: "DepthOfFieldPreview", 0x9157: "ClickWB", 0x9158: "Zoom",
        0x9159: "ZoomPosition", 0x915A: "SetLiveAfFrame", 0x915B: "TouchAfPosition", 0x915C: "SetLvPcFlavoreditMode",
        0x915D: "SetLvPcFlavoreditParam", 0x915E: "RequestSensorCleaning", 0x9160: "AfCancel",
        0x9166: "SetManipulationToggleImageSide", 0x9167: "GetLensSerialNumHistory",
        0x916B: "SetImageRecoveryDataEx", 0x916C: "GetImageRecoveryListEx", 0x916D: "CompleteAutoSendImages",
        0x916E: "NotifyAutoTransferStatus", 0x916F: "GetReducedObject", 0x9170: "GetObjectInfo64",
        0x9171: "GetObject64", 0x9172: "GetPartialObject64", 0x9173: "GetObjectInfoEx64",
        0x9174: "GetPartialObjectEX64", 0x9175: "CreateHandle64", 0x9177: "NotifySaveComplete",
        0x9178: "GetTranscodedBlock", 0x9179: "TransferCompleteTranscodedBlock", 0x917B: "SetRemoteErrLogMode",
        0x917C: "GetRemoteErrLogMode", 0x917D: "GetDebugLogEx", 0x9182: "NotifyEstimateNumberofImport",
        0x9183: "NotifyNumberofImported", 0x9184: "NotifySizeOfPartialDataTransfer", 0x9185: "NotifyFinish",
        0x9186: "GetWFTData", 0x9187: "SetWFTData", 0x9188: "ChangeWFTSettingNumber",
        0x9189: "GetPictureStylePCFlavorParam", 0x918A: "SetPictureStylePCFlavorParam", 0x91AB: "GetObjectURL",
        0x91AC: "SetCAssistMode", 0x91AD: "GetCAssistPresetThumb", 0x91B1: "SendWifiSetting",
        0x91B2: "SendWifiDetailSetting", 0x91B9: "SetFELock", 0x91BA: "DeleteWFTSettingNumber",
        0x91BE: "SetDefaultCameraSetting", 0x91BF: "GetAEData", 0x91E4: "SendHostInfo", 0x91E8: "NotifyNetworkError",
        0x91E9: "AdapterTransferProgress", 0x91F0: "TransferCompleteFTP", 0x91F1: "CancelTransferFTP",
        0x91F9: "NotifyBtStatus", 0x91FD: "SetAdapterBatteryReport", 0x91FE: "FAPIMessageTX",
        0x91FF: "FAPIMessageRX", 0x9200: "EdgeFocusPosition", 0x9201: "DriveFocusToEdge", 0x9202: "DriveFocus",
        0x9401: "DV_Get_WavInfo", 0x9402: "DV_Overwrite_Contents_XML", 0x9403: "DV_Get_Template_XML",
    ]
    static let nikon: [UInt16: String] = [
        0x9006: "GetProfileAllData", 0x9007: "SendProfileData", 0x9008: "DeleteProfile", 0x9009: "SetProfileData",
        0x9010: "AdvancedTransfer", 0x9011: "GetFileInfoInBlock", 0x90C0: "InitiateCaptureRecInSdram",
        0x90C1: "AfDrive", 0x90C2: "ChangeCameraMode", 0x90C3: "DelImageSDRAM", 0x90C4: "GetLargeThumb",
        0x90C5: "CurveDownload", 0x90C6: "CurveUpload", 0x90C7: "GetEvent", 0x90C8: "DeviceReady",
        0x90C9: "SetPreWBData", 0x90CA: "GetVendorPropCodes", 0x90CB: "AfCaptureSDRAM", 0x90CC: "GetPictCtrlData",
        0x90CD: "SetPictCtrlData", 0x90CE: "DelCstPicCtrl", 0x90CF: "GetPicCtrlCapability",
        0x90E0: "GetDevicePTPIPInfo", 0x9200: "GetPreviewImg", 0x9201: "StartLiveView", 0x9202: "EndLiveView",
        0x9203: "GetLiveViewImg", 0x9204: "MfDrive", 0x9205: "ChangeAfArea", 0x9206: "AfDriveCancel",
        0x9207: "InitiateCaptureRecInMedia", 0x9209: "GetVendorStorageIDs", 0x920A: "StartMovieRecInCard",
        0x920B: "EndMovieRec", 0x920C: "TerminateCapture", 0x920F: "GetFhdPicture",
        0x9400: "GetPartialObjectHiSpeed", 0x9402: "StartSpotWb", 0x9403: "EndSpotWb", 0x9404: "ChangeSpotWbArea",
        0x9405: "MeasureSpotWb", 0x9406: "EndSpotWbResultDisp", 0x940C: "CancelImagesInSDRAM",
        0x9414: "GetSBHandles", 0x9415: "GetSBAttrDesc", 0x9416: "GetSBAttrValue", 0x9417: "SetSBAttrValue",
        0x9418: "GetSBGroupAttrDesc", 0x9419: "GetSBGroupAttrValue", 0x941A: "SetSBGroupAttrValue",
        0x941B: "TestFlash", 0x941C: "GetEventEx", 0x941D: "MirrorUpCancel", 0x941E: "PowerZoomByFocalLength",
        0x941F: "ActiveSelectionControl", 0x9420: "SaveCameraSetting", 0x9421: "GetObjectSize",
        0x9422: "ChangeMonitorOff", 0x9423: "GetLiveViewCompressedSize", 0x9424: "StartTracking",
        0x9425: "EndTracking", 0x9426: "ChangeAELock", 0x9428: "GetLiveViewImageEx", 0x9431: "GetPartialObjectEx",
        0x9432: "GetManualSettingLensData", 0x9433: "InitiatePixelMapping", 0x9434: "GetObjectsMetaData",
        0x9435: "ChangeApplicationMode", 0x9436: "ResetMenu", 0x9439: "GetVendorCodes", 0x9504: "GetDevicePropEx",
    ]
    static let fujifilm: [UInt16: String] = [
        0x9020: "InitiateMovieCapture", 0x9021: "TerminateMovieCapture", 0x9022: "GetCapturePreview",
        0x9026: "SetFocusPoint", 0x9027: "ResetFocusPoint", 0x902B: "GetDeviceInfo", 0x902C: "SetShutterSpeed",
        0x902D: "SetAperture", 0x902E: "SetExposureCompensation", 0x9030: "CancelInitiateCapture",
        0x9040: "FmSendObjectInfo", 0x9041: "FmSendObject", 0x9042: "FmSendPartialObject",
    ]
    static let sony: [UInt16: String] = [
        0x9201: "SDIO_Connect", 0x9202: "SDIO_GetExtDeviceInfo", 0x9203: "GetDevicePropdesc",
        0x9204: "GetDevicePropertyValue", 0x9205: "SDIO_SetExtDevicePropValue", 0x9206: "GetControlDeviceDesc",
        0x9207: "SDIO_ControlDevice", 0x9209: "SDIO_GetAllExtDevicePropInfo", 0x9210: "SDIO_OpenSession",
        0x9211: "SDIO_GetPartialLargeObject", 0x9212: "SDIO_SetContentsTransferMode",
        0x9215: "SDIO_GetDisplayStringList", 0x9223: "SDIO_GetLensInformation",
        0x922F: "SDIO_OperationsResultsSupported", 0x96F2: "QX_SetExtPictureProfile",
        0x96F3: "QX_GetExtPictureProfile", 0x96F4: "QX_GetExtLensInfo", 0x96F5: "QX_SendUpdateFile",
        0x96F6: "QX_GetAllDevicePropData", 0x96F8: "QX_SetControlDeviceB", 0x96FA: "QX_SetControlDeviceA",
        0x96FD: "QX_GetSDIOGetExtDeviceInfo", 0x96FE: "QX_Connect",
    ]
    static let mtp: [UInt16: String] = [
        0x9101: "WMDRMPD_GetSecureTimeChallenge", 0x9102: "WMDRMPD_GetSecureTimeResponse",
        0x9103: "WMDRMPD_SetLicenseResponse", 0x9104: "WMDRMPD_GetSyncList",
        0x9105: "WMDRMPD_SendMeterChallengeQuery", 0x9106: "WMDRMPD_GetMeterChallenge",
        0x9107: "WMDRMPD_SetMeterResponse", 0x9108: "WMDRMPD_CleanDataStore", 0x9109: "WMDRMPD_GetLicenseState",
        0x910A: "WMDRMPD_SendWMDRMPDCommand", 0x910B: "WMDRMPD_SendWMDRMPDRequest",
        0x9122: "WPDWCN_ProcessWFCObject", 0x9170: "AAVT_OpenMediaSession", 0x9171: "AAVT_CloseMediaSession",
        0x9172: "AAVT_GetNextDataBlock", 0x9173: "AAVT_SetCurrentTimePosition",
        0x9180: "WMDRMND_SendRegistrationRequest", 0x9181: "WMDRMND_GetRegistrationResponse",
        0x9182: "WMDRMND_GetProximityChallenge", 0x9183: "WMDRMND_SendProximityResponse",
        0x9184: "WMDRMND_SendWMDRMNDLicenseRequest", 0x9185: "WMDRMND_GetWMDRMNDLicenseResponse",
        0x9201: "WMPPD_ReportAddedDeletedItems", 0x9202: "WMPPD_ReportAcquiredItems",
        0x9203: "WMPPD_PlaylistObjectPref", 0x9204: "ZUNE_GETUNDEFINED001", 0x9212: "WMDRMPD_SendWMDRMPDAppRequest",
        0x9213: "WMDRMPD_GetWMDRMPDAppResponse", 0x9214: "WMDRMPD_EnableTrustedFilesOperations",
        0x9215: "WMDRMPD_DisableTrustedFilesOperations", 0x9216: "WMDRMPD_EndTrustedAppSession",
        0x95C1: "GetPartialObject64", 0x95C2: "SendPartialObject", 0x95C3: "TruncateObject",
        0x95C4: "BeginEditObject", 0x95C5: "EndEditObject", 0x9801: "GetObjectPropsSupported",
        0x9802: "GetObjectPropDesc", 0x9803: "GetObjectPropValue", 0x9804: "SetObjectPropValue",
        0x9805: "GetObjPropList", 0x9806: "SetObjPropList", 0x9807: "GetInterdependendPropdesc",
        0x9808: "SendObjectPropList", 0x9810: "GetObjectReferences", 0x9811: "SetObjectReferences",
        0x9812: "UpdateDeviceFirmware", 0x9820: "Skip",
    ]
}
