import MediaFormats
import MediaManager

/// A media file and the files that travel with it (same folder, same name before the extension):
/// a video's telemetry (.SRT), proxy (.LRF) and thumbnail (.THM); the JPEG of a RAW+JPEG pair.
/// They go to the media file's folder, named by its capture time.
public struct MediaGroup: Sendable {
    public var main: MediaFile
    public var followers: [MediaFile]

    /// What a file is to its group, for `--no-sidecars` and `--no-proxies`.
    public enum Role: String, Sendable {
        case media, sidecar, proxy
    }

    public static func role(of file: MediaFile, in group: MediaGroup) -> Role {
        if file.id == group.main.id && file.path == group.main.path { return .media }
        switch file.kind {
        case .lowResolutionVideo: return .proxy
        case .jpeg, .raw, .tiff, .heic, .mp4, .mov: return .media
        default: return .sidecar
        }
    }

    /// Which member leads a group: a video, else a JPEG or HEIC, else any other picture, else the first.
    static func rank(_ kind: MediaKind) -> Int {
        switch kind {
        case .mp4, .mov: 0
        case .jpeg, .heic: 1
        case .raw, .tiff: 2
        case .other: 4
        default: 3
        }
    }

    /// What the members of a group share: the folder and the stem, case folded.
    static func key(of file: MediaFile) -> String { file.folder + "/" + file.stem.lowercased() }

    /// Groups `files` by folder and stem (case-insensitively), in the order of their first member.
    public static func grouping(_ files: [MediaFile]) -> [MediaGroup] {
        var order: [String] = []
        var members: [String: [MediaFile]] = [:]
        for f in files where !f.isFolder {
            let key = key(of: f)
            if members[key] == nil { order.append(key) }
            members[key, default: []].append(f)
        }
        return order.map { key in
            let list = members[key]!
            let lead = list.enumerated().min { a, b in
                (rank(a.element.kind), a.offset) < (rank(b.element.kind), b.offset)
            }!.offset
            var rest = list
            let main = rest.remove(at: lead)
            return MediaGroup(main: main, followers: rest)
        }
    }
}
