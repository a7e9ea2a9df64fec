import Foundation
import Imaging
import TestSupport

/// JPEGs for the decoding tests: made by ImageMagick once per test process, plus the committed demo media.
enum Fixtures {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func demoMedia(_ name: String) throws -> [UInt8] {
        let url = packageRoot.appendingPathComponent("Sources/VirtualCamera/DemoMedia/\(name)")
        return Array(try Data(contentsOf: url))
    }

    /// 64x32: left half pure red, right half pure blue, baseline, 4:4:4, quality 95.
    static let redBlue: [UInt8] = try! Tools.convert([
        "-size", "32x32", "xc:#FF0000", "-size", "32x32", "xc:#0000FF", "+append",
        "-sampling-factor", "1x1", "-quality", "95",
    ])

    /// 48x32 made of six 16x16 blocks in distinct colours (rows: red green blue / yellow magenta cyan), 4:4:4.
    static let sixBlocks: [UInt8] = try! Tools.convert([
        "-size", "16x16", "(", "xc:#FF0000", "xc:#00FF00", "xc:#0000FF", "+append", ")",
        "(", "xc:#FFFF00", "xc:#FF00FF", "xc:#00FFFF", "+append", ")", "-append",
        "-sampling-factor", "1x1", "-quality", "98",
    ])

    /// 2000x1500 plasma-free gradient photo stand-in, baseline 4:2:0.
    static let large: [UInt8] = try! Tools.convert([
        "-size", "2000x1500", "gradient:#204060-#E0C080", "-sampling-factor", "2x2", "-quality", "80",
    ])

    /// A 64x48 progressive JPEG (4:2:0).
    static let progressive: [UInt8] = try! Tools.convert([
        "-size", "64x48", "gradient:#102030-#F0E0D0", "-interlace", "Plane", "-sampling-factor", "2x2",
        "-quality", "85",
    ])

    /// 96x64 noisy picture with a realistic amount of entropy-coded data, baseline 4:2:0.
    static let noisy: [UInt8] = try! Tools.convert([
        "-size", "96x64", "-seed", "7", "plasma:fractal", "-sampling-factor", "2x2", "-quality", "85",
    ])

    /// `jpeg` with the frame header's height and width replaced (the image data stays as it was).
    static func withFrameSize(_ jpeg: [UInt8], width: Int, height: Int) -> [UInt8] {
        var bytes = jpeg
        let sof = frameHeaderOffset(bytes)
        bytes[sof + 5] = UInt8(height >> 8)
        bytes[sof + 6] = UInt8(height & 0xFF)
        bytes[sof + 7] = UInt8(width >> 8)
        bytes[sof + 8] = UInt8(width & 0xFF)
        return bytes
    }

    /// Offset of the 0xFF of the first SOFn marker.
    static func frameHeaderOffset(_ bytes: [UInt8]) -> Int {
        var i = 2
        while i + 3 < bytes.count {
            precondition(bytes[i] == 0xFF)
            let marker = bytes[i + 1]
            if [0xC0, 0xC1, 0xC2].contains(marker) { return i }
            i += 2 + (Int(bytes[i + 2]) << 8 | Int(bytes[i + 3]))
        }
        preconditionFailure("no SOF")
    }

    /// Offset just past the first SOS segment (where entropy-coded data starts).
    static func scanDataOffset(_ bytes: [UInt8]) -> Int {
        var i = 2
        while i + 3 < bytes.count {
            let length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            if bytes[i + 1] == 0xDA { return i + 2 + length }
            i += 2 + length
        }
        preconditionFailure("no SOS")
    }
}


extension RGB {
    func isClose(to other: RGB, tolerance: Int) -> Bool {
        abs(Int(r) - Int(other.r)) <= tolerance && abs(Int(g) - Int(other.g)) <= tolerance
            && abs(Int(b) - Int(other.b)) <= tolerance
    }
}
