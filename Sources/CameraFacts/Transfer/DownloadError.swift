import Failures

/// Why a download stopped, as data (the shell words it). The `.part` file stays in every case, so the next
/// fetch resumes.
public enum DownloadError: Error, Equatable, Sendable, CustomStringConvertible, CategorizedError {
    /// A file appeared at the destination while this one downloaded, and nothing may replace it.
    case exists(path: String)
    /// The download stopped at byte `at` of `size`, what arrived kept in `path.part`. `cause` says why:
    /// `CancellationError` when someone asked to stop, the device's or the link's error otherwise; the
    /// category is the cause's.
    case interrupted(remoteName: String, path: String, at: UInt64, size: UInt64, cause: any Error)
    /// The file arrived with another size than the camera listed.
    case sizeMismatch(path: String, expected: UInt64, got: UInt64)
    /// The local system refused: the call, the file and the errno (its category says which kind of refusal).
    case local(SystemError)
    /// The camera sent more than a request asked for.
    case overrun(String)
    /// The files of a fetch need `needed` more bytes in `folder` than the `available` there (what kept
    /// `.part`s hold counted as there): nothing was written.
    case notEnoughSpace(needed: UInt64, available: UInt64, folder: String)

    /// Where a cancelled download stopped; nil for any other failure.
    public var cancelledAt: UInt64? {
        if case .interrupted(_, _, let at, _, let cause) = self, cause.isCancellation { return at }
        return nil
    }

    public var category: FailureCategory {
        switch self {
        case .exists: .alreadyExists
        case .interrupted(_, _, _, _, let cause): cause.failureCategory
        case .sizeMismatch, .overrun: .deviceFault
        case .local(let error): error.category
        case .notEnoughSpace: .localIO
        }
    }

    public var description: String {
        switch self {
        case .exists(let path): "\(path) appeared meanwhile"
        case .interrupted(let remoteName, let path, let at, let size, let cause):
            cause.isCancellation
                ? "cancelled at byte \(at); \(path).part kept"
                : "\(remoteName): \(cause) (\(at) of \(size) bytes kept in .part)"
        case .sizeMismatch(let path, let expected, let got):
            "\(path): got \(got) bytes, the camera listed \(expected); kept as .part"
        case .local(let error): error.description
        case .overrun(let why): why
        case .notEnoughSpace(let needed, let available, let folder):
            "not enough space in \(folder): the files need \(needed) bytes, \(available) are free"
        }
    }

    /// Equal cases with equal facts; two causes are equal when they are of one category and read the same.
    public static func == (lhs: DownloadError, rhs: DownloadError) -> Bool {
        switch (lhs, rhs) {
        case (.exists(let a), .exists(let b)): a == b
        case (.interrupted(let n1, let p1, let a1, let s1, let c1), .interrupted(let n2, let p2, let a2, let s2, let c2)):
            n1 == n2 && p1 == p2 && a1 == a2 && s1 == s2 && c1.failureCategory == c2.failureCategory
                && String(describing: c1) == String(describing: c2)
        case (.sizeMismatch(let p1, let e1, let g1), .sizeMismatch(let p2, let e2, let g2)): p1 == p2 && e1 == e2 && g1 == g2
        case (.local(let a), .local(let b)): a == b
        case (.overrun(let a), .overrun(let b)): a == b
        case (.notEnoughSpace(let n1, let a1, let f1), .notEnoughSpace(let n2, let a2, let f2)): n1 == n2 && a1 == a2 && f1 == f2
        default: false
        }
    }
}
