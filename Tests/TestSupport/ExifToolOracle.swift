import Foundation

/// exiftool as the oracle for EXIF: it writes tags into copies of the demo photos, and says what a file
/// holds (`-n -j -G1 -a`: numbers, every tag by group and name). The tests compare our reading with it.
public enum ExifToolOracle {
    /// Tag sets written into copies of the demo photos: both hemispheres, above and below sea level,
    /// short and long exposures, a lens with and without its maker, a photo without GPS or exposure.
    public static let corpus: [[String]] = [
        [
            "-GPSLatitude=46.5196535", "-GPSLatitudeRef=N", "-GPSLongitude=6.6322734", "-GPSLongitudeRef=E",
            "-GPSAltitude=402.25", "-GPSAltitudeRef#=0", "-ExposureTime=1/250", "-FNumber=2.8", "-ISO=100",
            "-ExposureCompensation=0.7", "-LensMake=DJI", "-LensModel=24.0 mm f/2.8", "-FocalLength=4.5",
            "-FocalLengthIn35mmFormat=24", "-SerialNumber=0K8TG5R0A1B2C3",
        ],
        [
            "-GPSLatitude=33.8688197", "-GPSLatitudeRef=S", "-GPSLongitude=151.2092955", "-GPSLongitudeRef=W",
            "-GPSAltitude=12.5", "-GPSAltitudeRef#=1", "-ExposureTime=1/8000", "-FNumber=11", "-ISO=3200",
            "-ExposureCompensation=-1.3", "-LensModel=FE 24-70mm F2.8 GM", "-FocalLength=50",
        ],
        [
            "-gps:all=", "-GPSLatitude=0.5", "-GPSLatitudeRef=N", "-GPSLongitude=0.25", "-GPSLongitudeRef=E",
            "-ExposureTime=2", "-FNumber=1.7", "-ExposureCompensation=0", "-Make=Canon", "-Model=Canon EOS R5",
            "-SerialNumber=012345678901",
        ],
        ["-gps:all=", "-ISO=400"],
    ]

    /// Copies `source` to `destination` and writes `assignments` into the copy.
    public static func write(_ assignments: [String], copying source: String, to destination: String) throws {
        try? FileManager.default.removeItem(atPath: destination)
        try FileManager.default.copyItem(atPath: source, toPath: destination)
        guard let exiftool = ExternalTool.exiftool else { return }
        try exiftool.run(["-q", "-overwrite_original"] + assignments + [destination])
    }

    /// What exiftool says of `path` in numbers: `"GPS:GPSLatitude": 46.5196535`, `"Composite:GPSLatitude"`
    /// signed by its reference.
    public static func values(_ path: String) throws -> [String: Any] {
        let tool = try require()
        let json = try tool.run(["-n", "-j", "-G1", "-a", path])
        let list = try JSONSerialization.jsonObject(with: json) as? [[String: Any]]
        return list?.first ?? [:]
    }

    /// exiftool's descriptions (its default output: `[GPS] GPS Latitude : ...`), as `GROUP:Description`.
    public static func descriptions(_ path: String) throws -> Set<String> {
        let tool = try require()
        let text = String(decoding: try tool.run(["-G1", "-a", path]), as: UTF8.self)
        var result: Set<String> = []
        for line in text.split(separator: "\n") {
            guard line.hasPrefix("["), let close = line.firstIndex(of: "]"), let colon = line.range(of: " : ") else { continue }
            let group = line[line.index(after: line.startIndex)..<close]
            let description = line[line.index(after: close)..<colon.lowerBound].trimmingCharacters(in: .whitespaces)
            result.insert("\(group):\(description)")
        }
        return result
    }

    /// Two readings of one value agree: the same text, or numbers within `tolerance` (relative above 1).
    public static func same(_ ours: String, _ theirs: Any?, tolerance: Double = 1e-6) -> Bool {
        guard let theirs else { return false }
        if "\(theirs)" == ours { return true }
        guard let a = Double(ours), let b = (theirs as? NSNumber)?.doubleValue ?? Double("\(theirs)") else { return false }
        return abs(a - b) <= tolerance * max(1, abs(b))
    }

    private static func require() throws -> ExternalTool {
        guard let tool = ExternalTool.exiftool else { throw ExternalTool.ToolFailure(description: "exiftool is not installed") }
        return tool
    }
}
