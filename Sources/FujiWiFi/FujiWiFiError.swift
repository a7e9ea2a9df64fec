import Failures
import POSIX

/// What a Fujifilm camera refused at the start of a connection, as facts; the shell says what to do.
public enum FujiWiFiError: Error, Equatable, Sendable, CustomStringConvertible, CategorizedError {
    /// The camera answered our init request with Init_Fail: it does not let this host in (another
    /// phone or computer is paired, or its Wi-Fi mode is not one that serves a computer).
    case refused(peer: String, reason: UInt32)

    public var description: String {
        switch self {
        case .refused(let peer, let reason):
            "\(peer) refused the connection (Init_Fail, reason 0x\(String(reason, radix: 16, uppercase: true)))"
        }
    }

    public var category: FailureCategory {
        switch self {
        case .refused: .deviceFault
        }
    }
}
