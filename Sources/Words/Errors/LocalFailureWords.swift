import Failures

/// The sentence for a local file operation that failed (a download's `.part`, an import's ledger): "cannot
/// write /photos/DJI_0001.JPG.part: No space left on device". Lower layers hand over the call, the path and
/// the errno; the words for each call are here.
public enum LocalFailureWords {
    public static func sentence(for error: SystemError) -> String {
        guard let path = error.path else { return "\(error.call) failed: \(error.reason)" }
        return "cannot \(verb(for: error.call)) \(path): \(error.reason)"
    }

    /// What the user would call what the call did to the file.
    public static func verb(for call: SystemError.Call) -> String {
        switch call {
        case .open: "open"
        case .read: "read"
        case .write, .pwrite: "write"
        case .ftruncate: "truncate"
        case .fsync: "flush"
        case .rename: "rename"
        case .utimensat: "set the time of"
        case .mkdir: "create"
        case .flock: "lock"
        case .access: "write to"
        default: call.rawValue
        }
    }
}
