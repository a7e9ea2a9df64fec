/// A thumbnail ready to show or save: a JPEG, the EXIF orientation that turns it upright, and where it came from.
public struct Thumbnail: Sendable {
    public enum Origin: Sendable, Equatable {
        /// The camera's answer to GetThumb.
        case device
        /// The EXIF thumbnail of the photo, read through a partial read (the camera gave none).
        case exif
        /// A video's `.THM` sidecar, a small JPEG.
        case sidecar(String)
        /// The first keyframe of a video's `.LRF` proxy, decoded by ffmpeg.
        case proxyKeyframe(String)
        /// A frame of the video itself, decoded from the keyframe before it by ffmpeg (`MovieFrame`): the
        /// paused frame, said as "frame 637 at 0:25.48".
        case frame(String)
    }

    public var jpeg: [UInt8]
    /// EXIF orientation (1–8) to apply before display; 1 when the JPEG is upright as it is.
    public var orientation = 1
    public var origin: Origin

    public init(jpeg: [UInt8], orientation: Int = 1, origin: Origin) {
        self.jpeg = jpeg
        self.orientation = orientation
        self.origin = origin
    }
}
