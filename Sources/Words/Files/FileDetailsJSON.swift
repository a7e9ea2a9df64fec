import Foundation
import MediaFormats
import MediaManager
import TerminalKit

extension FileDetails {
    /// `info --json`: the listing's entry with what was read from the file, its sidecars, whether it is the
    /// selected file (and its offset), and how much of it is downloaded (`downloaded`: whole, in the copy
    /// `localFile` proven to be it, or the bytes of a `.part`); `differentLocalFile` names a file of its
    /// name that is not it.
    public func json(dates: DateText, selectedOffset: UInt64?, local: DownloadedCopy, partial: UInt64?) -> String {
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

        enum Keys: String, CodingKey {
            case sidecars, selected, offset, downloaded, localFile, differentLocalFile, fpsRange
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
        }
    }
}
