/// Encodes pictures as baseline JPEG with libjpeg-turbo (`tjCompress2`).
public enum JPEGEncoder {
    /// How much colour resolution to keep: 4:2:0 is what cameras write; 4:4:4 keeps sharp coloured edges.
    public enum ChromaSubsampling: Sendable, Hashable {
        case yuv444, yuv422, yuv420, grayscale
    }

    /// The JPEG bytes of `image` at `quality` (clamped to 1...100).
    public static func encode(
        _ image: RGBImage, quality: Int = 85, subsampling: ChromaSubsampling = .yuv420
    ) throws(ImagingError) -> [UInt8] {
        guard image.width <= 65_500, image.height <= 65_500 else {
            throw .invalidArgument("cannot encode a \(image.size) image as JPEG: at most 65500 pixels a side")
        }
        let mode: Int32
        switch subsampling {
        case .yuv444: mode = TurboJPEG.subsampling444
        case .yuv422: mode = TurboJPEG.subsampling422
        case .yuv420: mode = TurboJPEG.subsampling420
        case .grayscale: mode = TurboJPEG.subsamplingGray
        }
        let q = min(max(quality, 1), 100)
        let result: Result<[UInt8], ImagingError> = image.pixels.withUnsafeBufferPointer { rgb in
            Result { () throws(ImagingError) in
                try TurboJPEG.compress(rgb, width: image.width, height: image.height, quality: q, subsampling: mode)
            }
        }
        return try result.get()
    }
}
