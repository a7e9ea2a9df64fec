import POSIX

/// Everything that can go wrong talking PTP, as data: callers branch on the case or its `category`, and the
/// response code stays attached for logs and hints. A cancelled transfer throws `CancellationError`, the one
/// spelling of "cancelled" in every module.
public enum PTPError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The device answered the operation with a response other than OK.
    case response(ResponseCode, operation: OperationCode)
    /// Bytes from the peer that do not decode: a dataset, container or packet that is malformed.
    case malformed(String)
    /// The peer broke the protocol's sequence (unexpected packet, wrong transaction id).
    case protocolViolation(String)
    /// No answer within the configured time.
    case timeout(String)
    /// A step of opening a connection went unanswered: which packet was awaited after which, from whom.
    case unanswered(UnansweredStep)
    /// The connection is gone (peer closed it, reset, or it was closed locally).
    case connectionClosed(String)
    /// A data phase larger than the caller allowed (kept bounded so a lying device cannot exhaust memory).
    case dataTooLarge(limit: UInt64, announced: UInt64)
    /// The local system refused something (socket, file) — errno text included.
    case system(String)

    public var description: String {
        switch self {
        case .response(let code, let operation):
            "\(operation) failed: \(code) (0x\(hex4(code.rawValue)))"
        case .malformed(let why): "malformed data from device: \(why)"
        case .protocolViolation(let why): "protocol error: \(why)"
        case .timeout(let what): "timed out: \(what)"
        case .unanswered(let step): step.description
        case .connectionClosed(let why): "connection closed: \(why)"
        case .dataTooLarge(let limit, let announced):
            "device announced \(announced) bytes, more than the \(limit) allowed here"
        case .system(let why): why
        }
    }

    /// The response code, when the device answered with one.
    public var responseCode: ResponseCode? {
        if case .response(let code, _) = self { return code }
        return nil
    }
}

extension PTPError: CategorizedError {
    /// DeviceBusy is `.busy`, OperationNotSupported `.notSupported`, any other response or bad data from the
    /// device `.deviceFault`.
    public var category: FailureCategory {
        switch self {
        case .response(let code, _):
            switch code {
            case .deviceBusy: .busy
            case .operationNotSupported: .notSupported
            case .transactionCancelled: .cancelled
            default: .deviceFault
            }
        case .malformed, .protocolViolation, .dataTooLarge: .deviceFault
        case .timeout, .unanswered: .timedOut
        case .connectionClosed: .disconnected
        case .system: .localIO
        }
    }
}

/// The packet a connection's opening waited for in vain, as data: `awaited` (Init_Command_Ack) did not
/// come within `seconds` after `sent` (Init_Command_Request) went to `peer`.
public struct UnansweredStep: Equatable, Sendable, CustomStringConvertible {
    public var awaited: String
    public var sent: String
    public var peer: String
    public var seconds: Double

    public init(awaited: String, sent: String, peer: String, seconds: Double) {
        self.awaited = awaited
        self.sent = sent
        self.peer = peer
        self.seconds = seconds
    }

    /// `no Init_Command_Ack within 10.0 s after Init_Command_Request to 127.0.0.1:15740`.
    public var description: String { "no \(awaited) within \(formatSeconds(seconds)) after \(sent) to \(peer)" }
}
