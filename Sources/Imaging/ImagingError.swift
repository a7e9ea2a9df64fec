/// Why a picture could not be decoded or encoded; `description` is one line a user can act on.
public enum ImagingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The input had no bytes at all.
    case emptyInput
    /// The bytes are not a JPEG, or its headers are malformed before any image data.
    case notJPEG(reason: String)
    /// The frame header declares a size that cannot be a real picture (0, or above `DecodeLimits.maxDimension`).
    case invalidDimensions(width: Int, height: Int)
    /// The picture has more pixels than `DecodeLimits.maxSourcePixels`.
    case tooManyPixels(width: Int, height: Int, limit: Int)
    /// Even at the smallest scale (1/8), decoding would need more memory than the caller allowed.
    case exceedsMemoryLimit(width: Int, height: Int, scale: ScalingFactor, requiredBytes: Int, limitBytes: Int)
    /// libjpeg-turbo refused; `operation` says what was attempted ("decode JPEG"), `message` is libjpeg's own
    /// text (tjGetErrorStr2).
    case libjpeg(operation: String, message: String)
    /// An argument the caller passed cannot be used (e.g. an image too large to encode).
    case invalidArgument(String)

    public var description: String {
        switch self {
        case .emptyInput:
            return "not a JPEG: the data is empty"
        case .notJPEG(let reason):
            return "not a JPEG: \(reason)"
        case .invalidDimensions(let w, let h):
            return "JPEG declares an impossible size \(w)x\(h)"
        case .tooManyPixels(let w, let h, let limit):
            return "JPEG is \(w)x\(h) (\(Self.megapixels(w * h))), over the \(Self.megapixels(limit)) limit"
        case .exceedsMemoryLimit(let w, let h, let scale, let required, let limit):
            return
                "JPEG \(w)x\(h) needs \(Self.mebibytes(required)) to decode at \(scale) scale, over the \(Self.mebibytes(limit)) limit"
        case .libjpeg(let operation, let message):
            return "cannot \(operation): \(Self.oneLine(message))"
        case .invalidArgument(let message):
            return message
        }
    }

    static func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 })
    }

    static func megapixels(_ pixels: Int) -> String {
        let tenths = (pixels / 10_000 + 5) / 10
        return "\(tenths / 10).\(tenths % 10) MP"
    }

    static func mebibytes(_ bytes: Int) -> String {
        let tenths = (bytes / 1024 * 10 + 512) / 1024
        return "\(tenths / 10).\(tenths % 10) MiB"
    }
}
