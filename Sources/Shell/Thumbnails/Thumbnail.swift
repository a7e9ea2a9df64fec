/// A thumbnail ready to show or save: a JPEG, the EXIF orientation that turns it upright, and where it came from.
struct Thumbnail: Sendable {
    enum Origin: Sendable, Equatable {
        /// The camera's answer to GetThumb.
        case device
        /// The EXIF thumbnail of the photo, read through a partial read (the camera gave none).
        case exif
        /// A video's `.THM` sidecar, a small JPEG.
        case sidecar(String)
        /// The first keyframe of a video's `.LRF` proxy, decoded by ffmpeg.
        case proxyKeyframe(String)
    }

    var jpeg: [UInt8]
    /// EXIF orientation (1–8) to apply before display; 1 when the JPEG is upright as it is.
    var orientation = 1
    var origin: Origin

    /// Words for the text line, empty for the camera's own thumbnail: ` (DJI_0003.THM)`.
    var originNote: String {
        switch origin {
        case .device: return ""
        case .exif: return " (EXIF)"
        case .sidecar(let name): return " (\(SafeText.display(name)))"
        case .proxyKeyframe(let name): return " (first frame of \(SafeText.display(name)))"
        }
    }
}

/// The file has no thumbnail anywhere the shell looked: not an error of the command, said in a line of its own.
struct NoThumbnail: Error, CustomStringConvertible {
    let reason: String
    var description: String { "no thumbnail (\(reason))" }
}
