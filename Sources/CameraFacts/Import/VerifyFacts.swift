import Checksums
import Failures

/// One copy to re-check (`verify`): where it is, and what it should be, as the ledger or a manifest
/// recorded it.
public struct CopyToCheck: Sendable, Hashable {
    public var path: String
    /// The checksum recorded for it; nil when none was (`--verify none`): only its presence and size count.
    public var expected: Checksum?
    public var size: UInt64?
    /// Who recorded it: a ledger's file, or a manifest's.
    public var recordedBy: String

    public init(path: String, expected: Checksum?, size: UInt64?, recordedBy: String) {
        self.path = path
        self.expected = expected
        self.size = size
        self.recordedBy = recordedBy
    }
}

/// What a re-check found wrong with one copy.
public enum CopyProblem: Sendable, Equatable {
    /// Not there (moved, deleted, or its drive not mounted).
    case missing(CopyToCheck)
    /// Not of the size recorded.
    case wrongSize(CopyToCheck, found: UInt64)
    /// Its bytes no longer give the checksum recorded: bit rot, a drive that lies, an edit.
    case changed(CopyToCheck, found: Checksum)
    /// It could not be read.
    case unreadable(CopyToCheck, SystemError)

    public var copy: CopyToCheck {
        switch self {
        case .missing(let c), .wrongSize(let c, _), .changed(let c, _), .unreadable(let c, _): c
        }
    }
}

/// How a re-check went.
public struct VerifyReport: Sendable, Equatable {
    /// Copies looked at.
    public var copies = 0
    /// Of them, with no checksum recorded (presence and size only).
    public var withoutChecksum = 0
    public var bytes: UInt64 = 0
    public var problems: [CopyProblem] = []
    public var seconds: Double = 0
    public var interrupted = false
    public init() {}
}
