/// One way a real camera departs from the spec, which the virtual camera can be told to imitate so that
/// initiators (ours, or anyone's: `mediashell serve --quirks`) can be tested against it. Each names a
/// behaviour seen in a real responder or listed among libgphoto2's ptp2 device flags.
public enum Quirk: String, CaseIterable, Sendable, Comparable {
    case proplistIgnoresDepth = "proplist-ignores-depth"
    case proplistListsSelf = "proplist-lists-self"
    case noProplist = "no-proplist"
    case lazyHandles = "lazy-handles"
    case handlesListSelf = "handles-list-self"
    case genericFormat = "generic-format"
    case zeroDimensions = "zero-dimensions"
    case noThumbs = "no-thumbs"
    case noThumbInfo = "no-thumb-info"
    case noPartial = "no-partial"
    case strictTransactions = "strict-transactions"
    case noDeviceInfoOutsideSession = "no-deviceinfo-outside-session"
    case stickySession = "sticky-session"
    case duplicateNames = "duplicate-names"
    case truncatedObjectInfo = "truncated-objectinfo"
    case invalidUTF16 = "invalid-utf16"
    case noAllStorages = "no-all-storages"
    case noEvents = "no-events"
    case captureNewFolder = "capture-new-folder"
    case okUnknownOps = "ok-unknown-ops"
    case stallListing = "stall-listing"
    case stallOpen = "stall-open"
    case stallClose = "stall-close"
    case fullMidUpload = "full-mid-upload"
    case uploadsOnReadOnly = "uploads-on-read-only"
    case noCard = "no-card"
    case unreadableJPEG = "unreadable-jpeg"
    case dropAtJPEG = "drop-at-jpeg"
    case objectInfoSize64 = "objectinfo-size64"
    case storageIDNotAStore = "storage-id-not-a-store"
    case parentNotAFolder = "parent-not-a-folder"
    case namelessObjects = "nameless-objects"
    case undescribedProps = "undescribed-props"

    public static func < (a: Quirk, b: Quirk) -> Bool { a.rawValue < b.rawValue }

    /// What the camera does with this quirk on, in a line (for `serve --quirks help`).
    public var summary: String {
        switch self {
        case .proplistIgnoresDepth:
            "GetObjectPropList ignores Depth: every listing answers the whole subtree under the folder"
        case .proplistListsSelf:
            "GetObjectPropList answers with the folder itself (the root as handle 0 named '/'), as uMTP-Responder"
        case .noProplist:
            "no GetObjectPropList or other MTP object properties (a plain PTP camera)"
        case .lazyHandles:
            "a folder's objects exist only after GetObjectHandles scanned it; before, InvalidObjectHandle (0x2009)"
        case .handlesListSelf:
            "GetObjectHandles of a folder also names the folder itself and its parent (a loop)"
        case .genericFormat:
            "every file is format 0x3000 (Undefined) in ObjectInfo and property lists"
        case .zeroDimensions:
            "width and height are reported as 0 (videos' properties; ObjectInfo)"
        case .noThumbs:
            "no GetThumb in DeviceInfo; the operation is refused"
        case .noThumbInfo:
            "ObjectInfo says no thumbnail (format 0, size 0) and GetThumb answers GeneralError (0x2002)"
        case .noPartial:
            "no GetPartialObject or GetPartialObject64: files come whole through GetObject only"
        case .strictTransactions:
            "transaction ids counted from the connection's first command; any other id is GeneralError, as libgphoto2's vcamera"
        case .noDeviceInfoOutsideSession:
            "GetDeviceInfo before OpenSession answers SessionNotOpen (0x2003), as Debian's umtp-responder 1.3.10"
        case .stickySession:
            "a session not closed survives the connection: the next OpenSession answers SessionAlreadyOpen (0x201E)"
        case .duplicateNames:
            "every second file of a folder is named as the file before it (every fourth in lower case)"
        case .truncatedObjectInfo:
            "the ObjectInfo of each folder's second file is cut short inside its name (and it has no name property)"
        case .invalidUTF16:
            "each folder's third file has a name holding an unpaired UTF-16 surrogate"
        case .noAllStorages:
            "storage 0xFFFFFFFF (all stores) is refused with InvalidStorageID"
        case .noEvents:
            "sends no events at all (no ObjectAdded, no CaptureComplete)"
        case .captureNewFolder:
            "capture makes a new DCIM folder for the shot and announces only the folder"
        case .okUnknownOps:
            "operations it does not list answer OK with no data, as libgphoto2's vcamera"
        case .stallListing:
            "never answers GetObjectHandles or GetObjectPropList below the root, nor a Depth-all list (a camera that hangs)"
        case .stallOpen:
            "opens the session, then never answers GetDeviceInfo (a camera that hangs while it is opened)"
        case .stallClose:
            "never answers CloseSession (a camera that hangs as the session ends)"
        case .fullMidUpload:
            "the card fills up half-way through each upload's bytes: SendObject answers StoreFull (0x200C), keeping nothing of it"
        case .noCard:
            "its one slot holds no card: GetStorageInfo and every listing of the store answer StoreNotAvailable (0x2013)"
        case .unreadableJPEG:
            "each folder's first JPEG cannot be read: GetObject and GetPartialObject answer GeneralError (0x2002), as for a damaged file"
        case .dropAtJPEG:
            "the connection closes when a folder's first JPEG is asked for (a camera switched off, a Wi-Fi link lost)"
        case .objectInfoSize64:
            "ObjectInfo carries ObjectCompressedSize as 64 bits, every later field 4 bytes on, as Samsung Galaxy phones' MTP did"
        case .storageIDNotAStore:
            "every object's StorageID (ObjectInfo, property lists) is 0x1000xxxx, which is no store, as Canon EOS bodies over PTP/IP"
        case .parentNotAFolder:
            "each folder's second file gives the folder's first file as its ParentObject (ObjectInfo, property lists)"
        case .namelessObjects:
            "every object's name is empty (ObjectInfo, property lists): a listing with nothing to show"
        case .undescribedProps:
            "DeviceInfo also lists vendor properties 0xD212-0xD21F that GetDevicePropDesc refuses (DevicePropNotSupported), as vcam's Fujifilm personas over USB"
        case .uploadsOnReadOnly:
            "a read-only card (serve --read-only) still lists SendObjectInfo and SendObject, which answer StoreReadOnly (0x200E), as QEMU's read-only usb-mtp"
        }
    }
}
