import POSIX
import Foundation

/// How far a transfer is: bytes, rate and time left, as a progress line shows them.
public struct TransferProgress: Sendable, Equatable {
    public var name: String
    public var bytesDone: UInt64
    public var totalBytes: UInt64
    /// Bytes per second over the transfer so far (this run only, not counting a resumed part).
    public var bytesPerSecond: Double
    public var elapsed: TimeInterval

    public var fraction: Double { totalBytes == 0 ? 1 : Double(bytesDone) / Double(totalBytes) }

    /// Seconds left at the current rate; nil before the rate is known.
    public var secondsLeft: Double? {
        guard bytesPerSecond > 0 else { return nil }
        return Double(totalBytes - min(bytesDone, totalBytes)) / bytesPerSecond
    }
}
