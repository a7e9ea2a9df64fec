/// The frame layout of a JPEG, read by walking its markers up to the first scan (pure Swift, no decoding).
/// It tells what `tjDecompressHeader3` does not: whether libjpeg will buffer the whole image's DCT coefficients
/// (progressive and multi-scan files), which is what bounds decoding memory for those files.
public struct JPEGStructure: Hashable, Sendable {
    /// One colour component of the frame, with its sampling factors (1...4).
    public struct Component: Hashable, Sendable {
        public var id: UInt8
        public var horizontalSampling: Int
        public var verticalSampling: Int
    }

    public var width: Int
    public var height: Int
    /// The start-of-frame marker (0xC0 baseline, 0xC1 extended, 0xC2 progressive, …).
    public var frameMarker: UInt8
    public var components: [Component]
    /// How many components the first scan carries; fewer than `components.count` means a multi-scan file.
    public var componentsInFirstScan: Int

    public var isProgressive: Bool { [0xC2, 0xC6, 0xCA, 0xCE].contains(frameMarker) }

    /// True when libjpeg decodes through a whole-image coefficient buffer (progressive or non-interleaved scans).
    public var buffersWholeImage: Bool { isProgressive || componentsInFirstScan < components.count }

    /// The bytes of libjpeg's whole-image coefficient buffer (64 coefficients x 2 bytes per block, each
    /// component's block grid rounded up to its sampling factors), or 0 when the file is decoded in one pass.
    public var coefficientBufferBytes: Int {
        guard buffersWholeImage else { return 0 }
        let maxH = components.map(\.horizontalSampling).max() ?? 1
        let maxV = components.map(\.verticalSampling).max() ?? 1
        var total = 0
        for c in components {
            let blocksWide = ceilDiv(width * c.horizontalSampling, 8 * maxH)
            let blocksHigh = ceilDiv(height * c.verticalSampling, 8 * maxV)
            total += roundUp(blocksWide, c.horizontalSampling) * roundUp(blocksHigh, c.verticalSampling) * 128
        }
        return total
    }

    /// Walks the markers of `jpeg` from SOI to the first SOS.
    public static func read(_ jpeg: [UInt8]) throws(ImagingError) -> JPEGStructure {
        let n = jpeg.count
        guard n > 0 else { throw .emptyInput }
        guard n >= 2, jpeg[0] == 0xFF, jpeg[1] == 0xD8 else {
            throw .notJPEG(reason: "no start-of-image marker (\(n) bytes starting \(hexPrefix(jpeg)))")
        }
        var frame: JPEGStructure?
        var i = 2
        while true {
            // Like libjpeg, skip stray bytes before a marker, then any 0xFF fill bytes.
            while i < n, jpeg[i] != 0xFF { i += 1 }
            while i < n, jpeg[i] == 0xFF { i += 1 }
            guard i < n else { throw .notJPEG(reason: "the file ends before any image data (truncated at \(n) bytes)") }
            let marker = jpeg[i]
            i += 1
            switch marker {
            case 0x01, 0xD0...0xD8:
                continue  // markers without a length
            case 0xD9:
                throw .notJPEG(reason: "end-of-image marker before any image data")
            default:
                break
            }
            guard i + 2 <= n else { throw .notJPEG(reason: "truncated in a marker header at byte \(i)") }
            let length = Int(jpeg[i]) << 8 | Int(jpeg[i + 1])
            guard length >= 2 else { throw .notJPEG(reason: "marker 0x\(hex(marker)) has an invalid length \(length)") }
            guard i + length <= n else {
                throw .notJPEG(reason: "truncated inside marker 0x\(hex(marker)) (needs \(length) bytes at \(i), file has \(n))")
            }
            let segment = jpeg[(i + 2)..<(i + length)]
            i += length
            switch marker {
            case 0xC0...0xC3, 0xC5...0xC7, 0xC9...0xCB, 0xCD...0xCF:
                guard frame == nil else { throw .notJPEG(reason: "two frame headers") }
                frame = try parseFrame(marker, Array(segment))
            case 0xDA:
                guard var frame else { throw .notJPEG(reason: "image data before the frame header") }
                guard let count = segment.first, count >= 1, count <= 4 else {
                    throw .notJPEG(reason: "scan header lists an invalid number of components")
                }
                frame.componentsInFirstScan = Int(count)
                return frame
            default:
                continue
            }
        }
    }

    private static func parseFrame(_ marker: UInt8, _ s: [UInt8]) throws(ImagingError) -> JPEGStructure {
        guard s.count >= 6 else { throw .notJPEG(reason: "frame header too short") }
        let height = Int(s[1]) << 8 | Int(s[2])
        let width = Int(s[3]) << 8 | Int(s[4])
        let count = Int(s[5])
        guard width > 0, height > 0 else { throw .invalidDimensions(width: width, height: height) }
        guard count >= 1, count <= 4, s.count >= 6 + 3 * count else {
            throw .notJPEG(reason: "frame header declares \(count) components")
        }
        var components: [Component] = []
        for k in 0..<count {
            let sampling = s[6 + 3 * k + 1]
            let h = Int(sampling >> 4)
            let v = Int(sampling & 0x0F)
            guard (1...4).contains(h), (1...4).contains(v) else {
                throw .notJPEG(reason: "component \(k) has invalid sampling factors \(h)x\(v)")
            }
            components.append(Component(id: s[6 + 3 * k], horizontalSampling: h, verticalSampling: v))
        }
        return JPEGStructure(
            width: width, height: height, frameMarker: marker, components: components, componentsInFirstScan: count)
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }

    private static func hexPrefix(_ bytes: [UInt8]) -> String {
        bytes.prefix(4).map { hex($0) }.joined(separator: " ")
    }
}

@inline(__always) func ceilDiv(_ a: Int, _ b: Int) -> Int { (a + b - 1) / b }
@inline(__always) func roundUp(_ a: Int, _ multiple: Int) -> Int { ceilDiv(a, multiple) * multiple }
