import CameraFacts
import Foundation
import MediaFormats
import TextKit

extension FileDetails {
    /// `info --json`: the listing's entry with what was read from the file, its sidecars, whether it is the
    /// selected file (and its offset), and how much of it is downloaded (`downloaded`: whole, in the copy
    /// `localFile` proven to be it, or the bytes of a `.part`); `differentLocalFile` names a file of its
    /// name that is not it. `exif` and `flight` hold what the file says of itself; `exifTags` (with
    /// `allTags`) every EXIF tag.
    public func json(
        dates: DateText, selectedOffset: UInt64?, local: DownloadedCopy, partial: UInt64?, allTags: Bool = false
    ) -> String {
        var object = JSON(entry: FileListing.jsonEntry(
            RemoteEntry(path: file.path, file: file, isFolder: false, shown: file.name), dates: dates,
            time: ShownCaptureTime(time: taken.time, pending: false)))
        object.entry.duration = video?.duration ?? object.entry.duration
        object.entry.width = video?.width ?? photo?.displayWidth ?? object.entry.width
        object.entry.height = video?.height ?? photo?.displayHeight ?? object.entry.height
        object.entry.fps = video?.framesPerSecond ?? object.entry.fps
        object.entry.codec = video?.codec ?? object.entry.codec
        object.fpsRange = video?.frameRateRange.map { [$0.lowerBound, $0.upperBound] }
        object.sidecars = sidecars.map(\.name)
        let exif = ExifDetails(tags: exifTags)
        object.exif = exif.isEmpty ? nil : ExifJSON(exif)
        if let flight, let flightFile { object.flight = FlightJSON(flight, file: flightFile.name) }
        if allTags {
            object.exifTags = exifTags.map {
                TagJSON(group: $0.directory.rawValue, id: Int($0.id), name: $0.name, description: $0.description, value: ExifWords.value($0))
            }
        }
        object.selected = selectedOffset != nil
        object.offset = selectedOffset
        switch local {
        case .proven(let path):
            object.downloaded = file.size
            object.localFile = path
        case .different(let path, _):
            object.downloaded = partial
            object.differentLocalFile = path
        case .absent:
            object.downloaded = partial
        }
        return FileListing.encode(object)
    }

    /// The object `json` writes: the listing's entry, then the rest as keys of the same object.
    private struct JSON: Encodable {
        var entry: FileListing.JSONEntry
        var sidecars: [String] = []
        var selected = false
        var offset: UInt64?
        var downloaded: UInt64?
        var localFile: String?
        var differentLocalFile: String?
        /// A variable-rate video's lowest and highest rate, `[10, 30]` (`fps` is the average).
        var fpsRange: [Double]?
        var exif: ExifJSON?
        var flight: FlightJSON?
        var exifTags: [TagJSON]?

        enum Keys: String, CodingKey {
            case sidecars, selected, offset, downloaded, localFile, differentLocalFile, fpsRange, exif, flight, exifTags
        }

        func encode(to encoder: Encoder) throws {
            try entry.encode(to: encoder)
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(sidecars, forKey: .sidecars)
            try container.encode(selected, forKey: .selected)
            try container.encodeIfPresent(offset, forKey: .offset)
            try container.encodeIfPresent(downloaded, forKey: .downloaded)
            try container.encodeIfPresent(localFile, forKey: .localFile)
            try container.encodeIfPresent(differentLocalFile, forKey: .differentLocalFile)
            try container.encodeIfPresent(fpsRange, forKey: .fpsRange)
            try container.encodeIfPresent(exif, forKey: .exif)
            try container.encodeIfPresent(flight, forKey: .flight)
            try container.encodeIfPresent(exifTags, forKey: .exifTags)
        }
    }

    /// What the EXIF says, in numbers: degrees (south and west negative), metres, seconds, EV, millimetres.
    private struct ExifJSON: Encodable {
        var latitude, longitude, altitude: Double?
        /// `above sea level`, `below sea level`.
        var altitudeReference: String?
        var map: String?
        var exposureTime: Double?
        var fNumber: Double?
        var iso: UInt32?
        var exposureBias: Double?
        var focalLength: Double?
        var focalLength35: UInt32?
        var lensMake, lensModel, make, model, serialNumber: String?

        init(_ exif: ExifDetails) {
            (latitude, longitude, altitude) = (exif.latitude, exif.longitude, exif.altitude)
            if let latitude, let longitude, exif.hemispheresGiven {
                map = ExifWords.mapLink(GeoPoint(latitude: latitude, longitude: longitude))
            }
            altitudeReference = exif.altitudeReference.map {
                switch $0 {
                case .aboveSeaLevel: "above sea level"
                case .belowSeaLevel: "below sea level"
                case .other(let value): "\(value)"
                }
            }
            (exposureTime, fNumber, iso, exposureBias) = (exif.exposureTime?.value, exif.fNumber, exif.iso, exif.exposureBias)
            (focalLength, focalLength35) = (exif.focalLength, exif.focalLength35)
            (lensMake, lensModel, make, model, serialNumber) = (exif.lensMake, exif.lensModel, exif.make, exif.model, exif.serialNumber)
        }
    }

    /// What a DJI `.SRT` says of the flight: its file, how long, from where to where, how high (metres).
    private struct FlightJSON: Encodable {
        struct Place: Encodable {
            var latitude, longitude: Double
        }
        var file: String
        var records: Int
        var duration: Double?
        var start, end: Place?
        var map: String?
        var highestRelative, highestAbsolute, highestUnspecified: Double?

        init(_ flight: FlightSummary, file: String) {
            self.file = file
            records = flight.cueCount
            duration = flight.duration
            start = flight.start.map { Place(latitude: $0.latitude, longitude: $0.longitude) }
            end = flight.end.map { Place(latitude: $0.latitude, longitude: $0.longitude) }
            map = flight.start.map(ExifWords.mapLink)
            (highestRelative, highestAbsolute, highestUnspecified) = (flight.highestRelative, flight.highestAbsolute, flight.highestUnspecified)
        }
    }

    /// One EXIF tag for `info --all --json`: its IFD, number, exiftool's name and description, its value.
    private struct TagJSON: Encodable {
        var group: String
        var id: Int
        var name: String?
        var description: String
        var value: String
    }
}
