import Checksums

/// Where a repaired copy's bytes came from.
public enum RepairSource: Sendable, Equatable {
    /// Another copy of the same file on this computer, which gave the recorded checksum as it was read.
    case copy(String)
    /// The camera's file (`FOLDER/NAME` on its card), whose bytes gave the recorded checksum as they came.
    case camera(String)

    /// As the ledger and the repairs log write it: the copy's path, or `camera:FOLDER/NAME`.
    public var recorded: String {
        switch self {
        case .copy(let path): path
        case .camera(let path): "camera:" + path
        }
    }
}

/// One copy `verify --repair` replaced with proven bytes.
public struct CopyRepair: Sendable, Equatable {
    public var path: String
    public var source: RepairSource
    /// The checksum the new bytes gave: the one recorded.
    public var checksum: Checksum
    /// Where the copy that failed was moved (`PATH.verify-failed`); nil when it was missing.
    public var keptAs: String?

    package init(path: String, source: RepairSource, checksum: Checksum, keptAs: String? = nil) {
        self.path = path
        self.source = source
        self.checksum = checksum
        self.keptAs = keptAs
    }
}

/// What the open camera did for a copy that no other copy could repair.
public enum CameraAttempt: Sendable {
    /// No camera is open (`mediashell verify` opens none).
    case notOpen
    /// The open camera is not the one whose ledger recorded the file (`recordedFor`: that ledger's camera).
    case otherCamera(recordedFor: String)
    /// The camera's card holds no object of the recorded name, size and capture date any more.
    case notOnCard
    /// The camera's file gives another checksum than the one recorded: nothing was replaced with it.
    case differs(found: Checksum)
    /// The camera could not give the file.
    case failed(any Error)
}

/// Why a copy was not repaired.
public enum RepairRefusal: Sendable {
    /// No checksum was recorded for it (`--verify none`): nothing can prove that other bytes are its own.
    case noChecksum
    /// Only a manifest records it, no ledger: no other copy of it is known, nor the camera it came from.
    case unknownToLedgers
    /// Its folder is not there (a drive not mounted?): nothing is written where it was.
    case folderGone(String)
    /// No other copy gave the recorded checksum (each as a re-check says what is wrong with it), and the
    /// camera did not either.
    case noProvenSource(tried: [CopyProblem], camera: CameraAttempt)
    /// The proven bytes could not be written beside it (the disk full, no permission).
    case failed(any Error)
}

/// A copy that was not repaired, and why.
public struct NotRepaired: Sendable {
    public var problem: CopyProblem
    public var why: RepairRefusal

    package init(problem: CopyProblem, why: RepairRefusal) {
        self.problem = problem
        self.why = why
    }
}

/// What `verify --repair` did with one copy that failed.
public enum RepairResult: Sendable {
    case repaired(CopyRepair)
    case notRepaired(NotRepaired)
}

/// What `verify --repair` did with every copy that failed.
public struct RepairReport: Sendable {
    public var repaired: [CopyRepair] = []
    public var notRepaired: [NotRepaired] = []
    /// Ctrl-C stopped it between two copies (or during a download from the camera, whose `.part` stays).
    public var interrupted = false
    public init() {}
}
