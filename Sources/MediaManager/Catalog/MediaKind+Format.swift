import MediaFormats
import PTP

extension MediaKind {
    /// The kind from the name's extension; when that says nothing, from the format code the device gave
    /// (a name without an extension, "IMG0001", with format EXIF/JPEG is a photo). 0x3000 and codes the
    /// client does not know say nothing either: the first bytes decide then, when read (`ContentCheck`).
    init(fileName: String, format: ObjectFormatCode) {
        let byName = MediaKind(fileName: fileName)
        guard byName == .other else { self = byName; return }
        switch format {
        case .exifJPEG: self = .jpeg
        case .tiff, .tiffEP: self = .tiff
        case .heif: self = .heic
        case .dng: self = .raw
        case .mp4Container: self = .mp4
        case .quickTime: self = .mov
        default: self = .other
        }
    }
}
