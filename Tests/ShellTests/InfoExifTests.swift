import Foundation
import MediaManager
import TestSupport
import Testing

@testable import Shell

/// `info` shows what a file says about itself (issue 42): a photo's EXIF place, altitude, exposure, lens,
/// focal length, camera and serial, each equal to what exiftool reads from a corpus it wrote; `info --all`
/// every tag by exiftool's names; a drone clip's flight from its `.SRT`.
@Suite(.enabled(if: ExternalTool.exiftool != nil, "needs exiftool"), .tags(.process), .notInFastRun)
struct InfoExifTests {
    let card: TemporaryFolder
    let interpreter: Interpreter
    let output: CapturedOutput
    /// The card's photos, each a demo photo with one of the oracle's tag sets.
    let photos: [String]

    init() throws {
        card = try TemporaryFolder("msh-info-exif")
        var names: [String] = []
        let demo = ["photo_landscape.jpg", "photo_portrait.jpg", "photo_rotated_orientation6.jpg"]
        for (index, assignments) in ExifToolOracle.corpus.enumerated() {
            let name = String(format: "DJI_%04d.JPG", index + 1)
            try FileManager.default.createDirectory(atPath: card.path("DCIM/100MEDIA"), withIntermediateDirectories: true)
            try ExifToolOracle.write(
                assignments, copying: DemoMedia.path(demo[index % demo.count]), to: card.path("DCIM/100MEDIA/" + name))
            names.append(name)
        }
        photos = names
        (interpreter, output, _) = makeInterpreter()
        try interpreter.open(.folder(path: card.path))
        #expect(interpreter.run(line: "cd DCIM/100MEDIA") == .success)
    }

    private func run(_ line: String) -> LineStatus {
        output.reset()
        return interpreter.run(line: line)
    }

    /// The value of the row `label` of the last `info`, without the columns' padding; nil when absent.
    private func row(_ label: String) -> String? {
        output.lines.first { $0.hasPrefix(label + ":") }.map {
            $0.dropFirst(label.count + 1).trimmingCharacters(in: .whitespaces)
        }
    }

    private func infoJSON(_ line: String) throws -> [String: Any] {
        #expect(run(line) == .success, "\(output.errors)")
        return try #require(JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any])
    }

    /// `33.868820° S` as -33.86882.
    private func signedDegrees(_ text: Substring) -> Double? {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: " ")
        guard parts.count == 2, let value = Double(parts[0].dropLast()) else { return nil }
        return parts[1] == "S" || parts[1] == "W" ? -value : value
    }

    @Test func infoShowsWhatExiftoolReads() throws {
        for name in photos {
            let theirs = try ExifToolOracle.values(card.path("DCIM/100MEDIA/" + name))
            #expect(run("info \(name)") == .success, "\(output.errors)")
            let context = "\(name): \(output.standardOutput)"

            // Place and map link, from exiftool's signed decimal degrees.
            if let latitude = theirs["Composite:GPSLatitude"] as? Double, let longitude = theirs["Composite:GPSLongitude"] as? Double {
                let place = try #require(row("place"), "\(context)")
                let halves = place.split(separator: ",")
                #expect(halves.count == 2)
                #expect(abs((signedDegrees(halves[0]) ?? .nan) - latitude) <= 5e-7, "\(context)")
                #expect(abs((signedDegrees(halves[1]) ?? .nan) - longitude) <= 5e-7, "\(context)")
                let map = String(format: "https://www.openstreetmap.org/?mlat=%.6f&mlon=%.6f", latitude, longitude)
                #expect(row("map") == map, "\(context)")
            } else {
                #expect(row("place") == nil && row("map") == nil, "\(context)")
            }

            // Altitude and its reference.
            if let altitude = theirs["GPS:GPSAltitude"] as? Double {
                let text = try #require(row("altitude"), "\(context)")
                #expect(abs((Double(text.prefix { $0 != " " }) ?? .nan) - altitude) <= 0.0005, "\(context)")
                let reference = theirs["GPS:GPSAltitudeRef"] as? Int
                #expect(text.hasSuffix(reference == 1 ? "m below sea level" : "m above sea level"), "\(context)")
            } else {
                #expect(row("altitude") == nil, "\(context)")
            }

            // Exposure: each part exiftool has, in the order shutter, aperture, ISO, bias.
            var parts = (row("exposure") ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }[...]
            if let time = theirs["ExifIFD:ExposureTime"] as? Double {
                let shutter = parts.popFirst() ?? "(none)"
                #expect(shutter.hasSuffix(" s"))
                let number = shutter.dropLast(2)
                let seconds = number.hasPrefix("1/") ? 1 / (Double(number.dropFirst(2)) ?? .nan) : Double(number) ?? .nan
                #expect(abs(seconds - time) <= time * 0.01, "\(context)")
            }
            if let fNumber = theirs["ExifIFD:FNumber"] as? Double {
                let aperture = parts.popFirst() ?? "(none)"
                #expect(aperture.hasPrefix("f/") && abs((Double(aperture.dropFirst(2)) ?? .nan) - fNumber) <= 0.05, "\(context)")
            }
            if let iso = theirs["ExifIFD:ISO"] as? Int { #expect(parts.popFirst() == "ISO \(iso)", "\(context)") }
            if let bias = theirs["ExifIFD:ExposureCompensation"] as? Double {
                let text = parts.popFirst() ?? "(none)"
                #expect(text.hasSuffix(" EV") && abs((Double(text.dropLast(3)) ?? .nan) - bias) <= 0.05, "\(context)")
                #expect(bias == 0 ? text == "0 EV" : text.hasPrefix(bias > 0 ? "+" : "-"), "\(context)")
            }
            #expect(parts.isEmpty, "\(context)")

            // Lens, focal length, camera, serial: as written.
            if let model = theirs["ExifIFD:LensModel"] as? String {
                let make = (theirs["ExifIFD:LensMake"] as? String).map { $0 + " " } ?? ""
                #expect(row("lens") == make + model, "\(context)")
            } else {
                #expect(row("lens") == nil, "\(context)")
            }
            if let focal = theirs["ExifIFD:FocalLength"] as? Double {
                let text = try #require(row("focal length"), "\(context)")
                #expect(abs((Double(text.prefix { $0 != " " }) ?? .nan) - focal) <= 0.05, "\(context)")
                let equivalent = (theirs["ExifIFD:FocalLengthIn35mmFormat"] as? Int).map { " (\($0) mm in 35 mm terms)" } ?? ""
                #expect(text.hasSuffix(" mm" + equivalent), "\(context)")
            }
            // The maker once: "Canon EOS R5", not "Canon Canon EOS R5".
            let (make, model) = (theirs["IFD0:Make"] as? String, theirs["IFD0:Model"] as? String)
            let camera = model.map { make != nil && !$0.hasPrefix(make!) ? make! + " " + $0 : $0 } ?? make
            #expect(row("taken with") == camera, "\(context)")
            #expect(row("serial") == theirs["ExifIFD:SerialNumber"] as? String, "\(context)")
        }
    }

    @Test func infoJSONCarriesExiftoolsNumbers() throws {
        for name in photos {
            let theirs = try ExifToolOracle.values(card.path("DCIM/100MEDIA/" + name))
            let exif = try #require(try infoJSON("info --json \(name)")["exif"] as? [String: Any], "\(name)")
            let pairs: [(String, String)] = [
                ("latitude", "Composite:GPSLatitude"), ("longitude", "Composite:GPSLongitude"), ("altitude", "GPS:GPSAltitude"),
                ("exposureTime", "ExifIFD:ExposureTime"), ("fNumber", "ExifIFD:FNumber"), ("iso", "ExifIFD:ISO"),
                ("exposureBias", "ExifIFD:ExposureCompensation"), ("focalLength", "ExifIFD:FocalLength"),
                ("focalLength35", "ExifIFD:FocalLengthIn35mmFormat"), ("lensMake", "ExifIFD:LensMake"),
                ("lensModel", "ExifIFD:LensModel"), ("make", "IFD0:Make"), ("model", "IFD0:Model"),
                ("serialNumber", "ExifIFD:SerialNumber"),
            ]
            for (ours, key) in pairs {
                if let value = theirs[key] {
                    #expect(ExifToolOracle.same("\(exif[ours] ?? "absent")", value, tolerance: 1e-9), "\(name) \(ours)")
                } else {
                    #expect(exif[ours] == nil, "\(name) \(ours)")
                }
            }
        }
    }

    @Test func infoAllListsEveryTagAsExiftoolNamesIt() throws {
        for name in photos {
            let path = card.path("DCIM/100MEDIA/" + name)
            let theirs = try ExifToolOracle.values(path)
            let tags = try #require(try infoJSON("info --all --json \(name)")["exifTags"] as? [[String: Any]])
            var seen: Set<String> = []
            for tag in tags {
                let key = "\(tag["group"] ?? "")" + ":" + "\(tag["name"] ?? "unnamed \(tag["id"] ?? "")")"
                seen.insert(key)
                #expect(ExifToolOracle.same("\(tag["value"] ?? "")", theirs[key]), "\(name) \(key): \(tag["value"] ?? "") vs \(theirs[key] ?? "absent")")
            }
            let groups: Set<Substring> = ["IFD0", "ExifIFD", "GPS", "InteropIFD", "IFD1"]
            let missed = theirs.keys.filter { groups.contains($0.split(separator: ":")[0]) && !seen.contains($0) }
            #expect(missed.sorted() == ["IFD1:ThumbnailImage"], "\(name)")

            // The text lists them by exiftool's descriptions.
            let descriptions = try ExifToolOracle.descriptions(path)
            #expect(run("info --all \(name)") == .success, "\(output.errors)")
            let lines = output.lines.drop { !$0.hasPrefix("EXIF (") }.dropFirst()
            #expect(lines.count == tags.count, "\(name)")
            for (line, tag) in zip(lines, tags) {
                let label = String(line.prefix { $0 != ":" })
                #expect(descriptions.contains("\(tag["group"] ?? ""):\(label)"), "\(name): \(line)")
            }
        }
    }

    @Test func aPhotoWithoutExifShowsNoneOfIt() throws {
        let path = card.path("DCIM/100MEDIA/DJI_0099.JPG")
        try ExifToolOracle.write(["-all="], copying: DemoMedia.path("photo_landscape.jpg"), to: path)
        #expect(run("refresh") == .success)
        #expect(run("info DJI_0099.JPG") == .success, "\(output.errors)")
        for label in ["taken with", "serial", "lens", "exposure", "focal length", "place", "map", "altitude"] {
            #expect(row(label) == nil, "\(label): \(output.standardOutput)")
        }
        #expect(run("info --all DJI_0099.JPG") == .success)
        #expect(output.lines.last == "EXIF: none")
    }

    /// DJI's telemetry as its recent drones write it: a cue per frame, a position and both altitudes in
    /// brackets; the first cue has no fix yet (0, 0).
    static let recentSRT = """
        1
        00:00:00,000 --> 00:00:00,040
        <font size="28">FrameCnt: 1, DiffTime: 40ms
        2024-06-01 12:00:00.000
        [iso: 100] [shutter: 1/500.0] [fnum: 2.8] [ev: 0] [latitude: 0.000000] [longitude: 0.000000] [rel_alt: 0.000 abs_alt: 85.400] </font>

        2
        00:00:00,040 --> 00:00:05,000
        <font size="28">FrameCnt: 2, DiffTime: 40ms
        2024-06-01 12:00:00.040
        [iso: 100] [shutter: 1/500.0] [fnum: 2.8] [ev: 0] [latitude: 22.543210] [longitude: 114.123456] [rel_alt: 35.100 abs_alt: 120.500] </font>

        3
        00:00:05,000 --> 00:00:12,500
        <font size="28">FrameCnt: 3, DiffTime: 40ms
        2024-06-01 12:00:05.000
        [iso : 200] [shutter : 1/250.0] [fnum : 280] [ev : -0.7] [latitude: 22.543999] [longitude: 114.124999] [rel_alt: 20.250 abs_alt: 105.650] </font>

        """

    /// The older form (Phantom 4, Mavic Pro): `GPS(longitude,latitude,altitude)` and the barometer's height.
    static let olderSRT = """
        1
        00:00:00,000 --> 00:00:01,000
        HOME(-0.1300,51.5000) 2019.06.20 14:23:42
        GPS(-0.1234,51.5010,95) BAROMETER:20.4
        ISO:100 Shutter:60 EV:0 Fnum:F2.2

        2
        00:00:01,000 --> 00:00:02,000
        HOME(-0.1300,51.5000) 2019.06.20 14:23:43
        GPS(-0.1240,51.5020,97) BAROMETER:22.8
        ISO:100 Shutter:60 EV:0 Fnum:F2.2

        """

    @Test func aDroneClipShowsItsFlight() throws {
        let clip = try [UInt8](Data(contentsOf: URL(fileURLWithPath: DemoMedia.path("landscape_faststart.mp4"))))
        try card.write("DCIM/100MEDIA/DJI_0010.MP4", clip)
        try card.write("DCIM/100MEDIA/DJI_0010.SRT", text: Self.recentSRT)
        try card.write("DCIM/100MEDIA/DJI_0011.MP4", clip)
        try card.write("DCIM/100MEDIA/DJI_0011.SRT", text: Self.olderSRT)
        #expect(run("refresh") == .success)

        #expect(run("info DJI_0010.MP4") == .success, "\(output.errors)")
        #expect(row("flight") == "0:13 in DJI_0010.SRT (3 records)", "\(output.standardOutput)")
        #expect(row("from") == "22.543210° N, 114.123456° E")
        #expect(row("to") == "22.543999° N, 114.124999° E")
        #expect(row("map") == "https://www.openstreetmap.org/?mlat=22.543210&mlon=114.123456")
        #expect(row("highest") == "35.1 m above take-off, 120.5 m above sea level")

        let flight = try #require(try infoJSON("info --json DJI_0010.MP4")["flight"] as? [String: Any])
        #expect(flight["file"] as? String == "DJI_0010.SRT" && flight["records"] as? Int == 3)
        #expect(flight["duration"] as? Double == 12.5)
        #expect(flight["highestRelative"] as? Double == 35.1 && flight["highestAbsolute"] as? Double == 120.5)
        let start = try #require(flight["start"] as? [String: Double])
        #expect(start["latitude"] == 22.54321 && start["longitude"] == 114.123456)

        #expect(run("info DJI_0011.MP4") == .success, "\(output.errors)")
        #expect(row("flight") == "0:02 in DJI_0011.SRT (2 records)", "\(output.standardOutput)")
        #expect(row("from") == "51.501000° N, 0.123400° W")
        #expect(row("to") == "51.502000° N, 0.124000° W")
        #expect(row("highest") == "22.8 m above take-off, 97 m above sea level")

        // The .SRT itself says the same.
        #expect(run("info DJI_0010.SRT") == .success, "\(output.errors)")
        #expect(row("highest") == "35.1 m above take-off, 120.5 m above sea level")
    }
}
