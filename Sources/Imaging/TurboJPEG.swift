import CTurboJPEG

/// The one seam between Swift and libjpeg-turbo's TurboJPEG API: every `tj*` call in the package is in this file.
/// Failures become `ImagingError.libjpeg` carrying `tjGetErrorStr2` text.
enum TurboJPEG {
    /// What `tjDecompressHeader3` reports.
    struct Header {
        var width: Int
        var height: Int
        var subsampling: Int32
        var colorspace: Int32
    }

    /// How a decompression ended.
    enum Outcome {
        case complete
        /// libjpeg recovered from damaged data (e.g. a truncated file, grey below the cut); the text says what.
        case recovered(warning: String)
    }

    /// The scaling factors the decompressor supports (`tjGetScalingFactors`), reduced to lowest terms.
    static func scalingFactors() -> [ScalingFactor] {
        var count: Int32 = 0
        guard let list = tjGetScalingFactors(&count), count > 0 else { return [ScalingFactor(1, 1)] }
        return (0..<Int(count)).map { ScalingFactor(Int(list[$0].num), Int(list[$0].denom)) }
    }

    /// Reads the frame header (`tjDecompressHeader3`) without decoding any image data.
    static func readHeader(_ jpeg: UnsafeRawBufferPointer) throws(ImagingError) -> Header {
        let handle = try decompressor()
        defer { tjDestroy(handle) }
        var width: Int32 = 0
        var height: Int32 = 0
        var subsampling: Int32 = 0
        var colorspace: Int32 = 0
        let base = jpeg.baseAddress?.assumingMemoryBound(to: UInt8.self)
        guard tjDecompressHeader3(handle, base, UInt(jpeg.count), &width, &height, &subsampling, &colorspace) == 0 else {
            throw .libjpeg(operation: "read JPEG header", message: errorText(handle))
        }
        return Header(width: Int(width), height: Int(height), subsampling: subsampling, colorspace: colorspace)
    }

    /// Decodes to packed RGB at `width` x `height`, which must be the JPEG's size under one of `scalingFactors()`
    /// (`tjDecompress2` picks that factor); `output` must hold exactly `width * height * 3` bytes.
    /// With `stopOnWarning`, damaged data is an error instead of a partial picture.
    static func decompress(
        _ jpeg: UnsafeRawBufferPointer, width: Int, height: Int, into output: UnsafeMutableBufferPointer<UInt8>,
        stopOnWarning: Bool
    ) throws(ImagingError) -> Outcome {
        precondition(output.count == width * height * 3)
        let handle = try decompressor()
        defer { tjDestroy(handle) }
        var flags = TJFLAG_LIMITSCANS
        if stopOnWarning { flags |= TJFLAG_STOPONWARNING }
        let base = jpeg.baseAddress?.assumingMemoryBound(to: UInt8.self)
        let status = tjDecompress2(
            handle, base, UInt(jpeg.count), output.baseAddress, Int32(width), Int32(width * 3), Int32(height),
            Int32(TJPF_RGB.rawValue), flags)
        if status == 0 { return .complete }
        let message = errorText(handle)
        if tjGetErrorCode(handle) == Int32(TJERR_WARNING.rawValue), !stopOnWarning {
            return .recovered(warning: message)
        }
        throw .libjpeg(operation: "decode JPEG", message: message)
    }

    /// Encodes packed RGB (`tjCompress2`) at `quality` 1...100 with the given `TJSAMP_*` chroma subsampling.
    static func compress(
        _ rgb: UnsafeBufferPointer<UInt8>, width: Int, height: Int, quality: Int, subsampling: Int32
    ) throws(ImagingError) -> [UInt8] {
        precondition(rgb.count == width * height * 3)
        guard let handle = tjInitCompress() else {
            throw .libjpeg(operation: "start the JPEG encoder", message: errorText(nil))
        }
        defer { tjDestroy(handle) }
        var buffer: UnsafeMutablePointer<UInt8>? = nil
        var size: UInt = 0
        defer { if let buffer { tjFree(buffer) } }
        let status = tjCompress2(
            handle, rgb.baseAddress, Int32(width), Int32(width * 3), Int32(height), Int32(TJPF_RGB.rawValue),
            &buffer, &size, subsampling, Int32(quality), TJFLAG_ACCURATEDCT)
        guard status == 0, let buffer else {
            throw .libjpeg(operation: "encode JPEG", message: errorText(handle))
        }
        return Array(UnsafeBufferPointer(start: buffer, count: Int(size)))
    }

    static let subsampling444 = Int32(TJSAMP_444.rawValue)
    static let subsampling422 = Int32(TJSAMP_422.rawValue)
    static let subsampling420 = Int32(TJSAMP_420.rawValue)
    static let subsamplingGray = Int32(TJSAMP_GRAY.rawValue)

    private static func decompressor() throws(ImagingError) -> tjhandle {
        guard let handle = tjInitDecompress() else {
            throw .libjpeg(operation: "start the JPEG decoder", message: errorText(nil))
        }
        return handle
    }

    private static func errorText(_ handle: tjhandle?) -> String {
        guard let text = tjGetErrorStr2(handle) else { return "unknown error" }
        return ImagingError.oneLine(String(cString: text))
    }
}
