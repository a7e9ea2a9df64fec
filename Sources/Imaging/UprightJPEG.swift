/// A JPEG re-encoded upright: for saving a thumbnail whose EXIF orientation says it is stored turned (a
/// saved thumbnail has no EXIF of its own, so the turn is applied to its pixels).
public enum UprightJPEG {
    /// Thumbnails are small; this bounds the decode of a hostile one.
    public static let decodeLimits = DecodeLimits(maxBytes: 64 << 20)

    /// `jpeg` as it is when `exifOrientation` is 1 (or not 1–8); else decoded, turned and encoded again.
    public static func make(_ jpeg: [UInt8], exifOrientation: Int) throws(ImagingError) -> [UInt8] {
        guard (2...8).contains(exifOrientation) else { return jpeg }
        let decoded = try JPEGDecoder.decode(jpeg, limits: decodeLimits)
        return try JPEGEncoder.encode(decoded.image.oriented(exifValue: exifOrientation), quality: 90)
    }
}
