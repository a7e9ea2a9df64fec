import Failures
import POSIX

/// Something this camera does not offer, found from its DeviceInfo or its ObjectInfo before any request
/// was sent (a request it never listed is never sent).
public enum CameraCapabilityError: Error, Equatable, Sendable, CustomStringConvertible {
    /// It cannot read part of a file (no GetPartialObject): only whole files, from byte 0.
    case cannotReadRanges
    /// It has no thumbnail for this object (no GetThumb, or its ObjectInfo says there is none).
    case noThumbnail
    /// It does not list the operation this needs ("deleting files", "capture").
    case notOffered(String)

    public var description: String {
        switch self {
        case .cannotReadRanges: "this camera cannot read part of a file (no GetPartialObject), only whole files"
        case .noThumbnail: "no thumbnail"
        case .notOffered(let what): "this camera does not offer \(what)"
        }
    }
}

extension CameraCapabilityError: CategorizedError {
    public var category: FailureCategory { .notSupported }
}
