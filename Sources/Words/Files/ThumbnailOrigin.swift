import CameraFacts
import TextKit

extension Thumbnail {
    /// Words for the text line, empty for the camera's own thumbnail: ` (DJI_0003.THM)`.
    public var originNote: String {
        switch origin {
        case .device: return ""
        case .exif: return " (EXIF)"
        case .sidecar(let name): return " (\(SafeText.display(name)))"
        case .proxyKeyframe(let name): return " (first frame of \(SafeText.display(name)))"
        case .frame(let which): return " (\(which))"
        }
    }
}
