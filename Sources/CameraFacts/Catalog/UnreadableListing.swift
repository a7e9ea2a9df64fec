import Failures

/// The camera named objects and not one of its files could be read (every name empty, every description
/// malformed): an error, never an empty card. What was seen is kept for the sentence (the shell words it)
/// and for a bug report.
public struct UnreadableListing: Error, Equatable, Sendable, CustomStringConvertible, CategorizedError {
    /// Every object lost, in the order they were met.
    public var lost: [ObjectProblem]

    public init(lost: [ObjectProblem]) { self.lost = lost }

    /// How many of the objects lost had no name.
    public var nameless: Int {
        lost.reduce(0) { count, problem in
            if case .nameless = problem.cause { return count + 1 }
            return count
        }
    }

    public var category: FailureCategory { .deviceFault }

    public var description: String {
        "the camera named \(lost.count) object\(lost.count == 1 ? "" : "s") and none could be read: "
            + lost.prefix(3).map(\.description).joined(separator: "; ")
            + (lost.count > 3 ? "; and \(lost.count - 3) more" : "")
    }
}
