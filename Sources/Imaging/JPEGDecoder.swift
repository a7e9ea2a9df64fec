/// How much memory a decode may use, set by the caller from what it will show (e.g. the terminal size).
public struct DecodeLimits: Hashable, Sendable {
    /// The most bytes a decode may allocate: the RGB output plus, for progressive or multi-scan files,
    /// libjpeg's whole-image coefficient buffer, plus its strip buffers (see `DecodePlan.requiredBytes`).
    public var maxBytes: Int
    /// Pictures with more pixels than this are refused before anything is allocated, whatever the scale.
    public var maxSourcePixels: Int
    /// Sides longer than this are refused (JPEG frame headers allow up to 65535).
    public var maxDimension: Int

    public static let defaultMaxSourcePixels = 1 << 28  // 268 MP, above any camera sensor
    public static let defaultMaxDimension = 65_535

    public init(
        maxBytes: Int, maxSourcePixels: Int = DecodeLimits.defaultMaxSourcePixels,
        maxDimension: Int = DecodeLimits.defaultMaxDimension
    ) {
        self.maxBytes = maxBytes
        self.maxSourcePixels = maxSourcePixels
        self.maxDimension = maxDimension
    }

    /// The floor of `forTarget`: enough to decode a 100-megapixel camera photo at 1/8.
    public static let minimumTargetBudget = 16 << 20

    /// A bound for showing a picture in `target` pixels: 16 x the RGB bytes of the target (libjpeg's scales
    /// are steps of 1/8, so the scale that covers a target can be up to twice as wide and tall as the target,
    /// and progressive files need their coefficients too), but never less than `minimumTargetBudget`.
    public static func forTarget(_ target: PixelSize) -> DecodeLimits {
        let scaled = target.area.multipliedReportingOverflow(by: 48)
        return DecodeLimits(maxBytes: max(scaled.overflow ? Int.max : scaled.partialValue, minimumTargetBudget))
    }
}

/// What a decode will do and allocate, decided from the header alone before any pixel is decoded.
public struct DecodePlan: Hashable, Sendable {
    public var source: PixelSize
    /// The libjpeg-turbo scaling factor decoded at (1/8 … 1).
    public var scale: ScalingFactor
    /// The size of the decoded picture: `source` scaled by `scale`, rounded up.
    public var output: PixelSize
    /// The RGB output buffer: `output.area * 3`.
    public var outputBytes: Int
    /// libjpeg's whole-image coefficient buffer, for progressive and multi-scan files; 0 otherwise.
    public var coefficientBytes: Int
    /// An upper estimate of libjpeg's strip buffers and TurboJPEG's row pointers, proportional to `output`'s
    /// width and height (a few rows of MCUs at the output scale).
    public var workingBytes: Int

    /// Everything the decode allocates that grows with the picture; this is what `DecodeLimits.maxBytes` bounds.
    public var requiredBytes: Int { outputBytes + coefficientBytes + workingBytes }
}

/// A decoded JPEG and how it was decoded.
public struct DecodedJPEG: Hashable, Sendable {
    public var image: RGBImage
    public var plan: DecodePlan
    /// libjpeg's text when it recovered from damaged data (e.g. "Premature end of JPEG file"): the picture is
    /// complete in size but partly grey or garbled; nil when the data was clean.
    public var warning: String?
}

/// Decodes JPEGs with libjpeg-turbo within a memory bound, at the smallest of its scales that still covers
/// the size the picture will be shown at, so an 8000x6000 photo for a thumbnail is decoded at 1/8 and never
/// allocated at full size.
public enum JPEGDecoder {
    /// The header facts: size from `tjDecompressHeader3`, frame layout from the markers.
    /// Throws a one-line error for empty data, non-JPEG data, truncated headers and impossible sizes.
    public static func readHeader(_ jpeg: [UInt8]) throws(ImagingError) -> JPEGStructure {
        var structure = try JPEGStructure.read(jpeg)
        let header = try jpeg.withBytes { bytes throws(ImagingError) in try TurboJPEG.readHeader(bytes) }
        if header.width != structure.width || header.height != structure.height {
            // Should not happen; trust libjpeg's size and assume the costly layout.
            structure.width = header.width
            structure.height = header.height
            structure.componentsInFirstScan = 0
        }
        return structure
    }

    /// Chooses the scale and checks the bound. With a `target`, the smallest libjpeg scale whose output still
    /// covers `source` fitted into `target` (never more than full size); with none, full size. When that scale
    /// needs more than `limits.maxBytes`, the largest smaller scale that fits is used; when not even 1/8 fits,
    /// the picture is refused.
    public static func plan(
        for header: JPEGStructure, fitting target: PixelSize?, limits: DecodeLimits
    ) throws(ImagingError) -> DecodePlan {
        let source = PixelSize(width: header.width, height: header.height)
        guard source.width > 0, source.height > 0, source.width <= limits.maxDimension,
            source.height <= limits.maxDimension
        else { throw .invalidDimensions(width: source.width, height: source.height) }
        guard source.area <= limits.maxSourcePixels else {
            throw .tooManyPixels(width: source.width, height: source.height, limit: limits.maxSourcePixels)
        }
        let factors = TurboJPEG.scalingFactors().filter { $0 <= .one }.sorted()
        let wanted = target.map { source.fitted(into: $0) } ?? source
        let covering =
            factors.first { f in
                f.scaled(source.width) >= min(wanted.width, source.width)
                    && f.scaled(source.height) >= min(wanted.height, source.height)
            } ?? .one
        let candidates = factors.filter { $0 <= covering }.reversed()
        var smallest: DecodePlan?
        for factor in candidates {
            let plan = makePlan(source: source, scale: factor, header: header)
            if plan.requiredBytes <= limits.maxBytes { return plan }
            smallest = plan
        }
        let refused = smallest ?? makePlan(source: source, scale: covering, header: header)
        throw .exceedsMemoryLimit(
            width: source.width, height: source.height, scale: refused.scale, requiredBytes: refused.requiredBytes,
            limitBytes: limits.maxBytes)
    }

    /// Decodes `jpeg` to RGB per `plan(for:fitting:limits:)`; the output is at the chosen scale, not resized to
    /// `target` (see `RGBImage.resized(toFit:)`). Damaged image data that libjpeg can recover from (a truncated
    /// file) gives a picture with `warning` set, unless `strict`, where it is an error. Never allocates more than
    /// `limits.maxBytes` for the picture: the plan is checked before any pixel buffer exists.
    public static func decode(
        _ jpeg: [UInt8], fitting target: PixelSize? = nil, limits: DecodeLimits, strict: Bool = false
    ) throws(ImagingError) -> DecodedJPEG {
        let header = try readHeader(jpeg)
        let plan = try plan(for: header, fitting: target, limits: limits)
        var pixels = [UInt8](repeating: 0, count: plan.outputBytes)
        let outcome = try jpeg.withBytes { bytes throws(ImagingError) in
            let result: Result<TurboJPEG.Outcome, ImagingError> = pixels.withUnsafeMutableBufferPointer { output in
                Result { () throws(ImagingError) in
                    try TurboJPEG.decompress(
                        bytes, width: plan.output.width, height: plan.output.height, into: output,
                        stopOnWarning: strict)
                }
            }
            return try result.get()
        }
        guard let image = RGBImage(width: plan.output.width, height: plan.output.height, pixels: pixels) else {
            throw .invalidArgument("internal: decoded buffer does not match \(plan.output)")
        }
        switch outcome {
        case .complete:
            return DecodedJPEG(image: image, plan: plan, warning: nil)
        case .recovered(let warning):
            return DecodedJPEG(image: image, plan: plan, warning: warning)
        }
    }

    private static func makePlan(source: PixelSize, scale: ScalingFactor, header: JPEGStructure) -> DecodePlan {
        let output = scale.scaled(source)
        let components = max(header.components.count, 3)
        // Strip buffers: up to 4 rows of MCUs (max 16 rows of 2 bytes per sample with context) per component.
        let strips = roundUp(output.width, 32) * components * 4 * 16 * 2
        let rowPointers = output.height * MemoryLayout<UnsafeRawPointer>.size
        return DecodePlan(
            source: source, scale: scale, output: output, outputBytes: output.area * 3,
            coefficientBytes: header.coefficientBufferBytes, workingBytes: strips + rowPointers)
    }
}

extension Array where Element == UInt8 {
    /// `withUnsafeBytes` for a body with typed throws.
    fileprivate func withBytes<R>(
        _ body: (UnsafeRawBufferPointer) throws(ImagingError) -> R
    ) throws(ImagingError) -> R {
        let result: Result<R, ImagingError> = withUnsafeBytes { bytes in
            Result { () throws(ImagingError) in try body(bytes) }
        }
        return try result.get()
    }
}
