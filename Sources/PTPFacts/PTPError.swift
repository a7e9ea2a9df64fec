import Failures

/// Everything that can go wrong talking PTP, as data: callers branch on the case or its `category`, and the
/// response code stays attached for logs and hints. A cancelled transfer throws `CancellationError`, the one
/// spelling of "cancelled" in every module.
public enum PTPError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The device answered the operation with a response other than OK, in transaction `transaction` (nil:
    /// this program answered for the device without asking it, as for a handle it already knows is gone).
    case response(ResponseCode, operation: OperationCode, transaction: UInt32?)
    /// Bytes from the peer that do not decode: a dataset, container or packet that is malformed.
    case malformed(Malformation)
    /// The peer broke the protocol's sequence (unexpected packet, wrong transaction id).
    case protocolViolation(ProtocolViolation)
    /// No answer within the configured time: from whom, how long, and what was awaited.
    case timeout(Wait)
    /// A step of opening a connection went unanswered: which packet was awaited after which, from whom.
    case unanswered(UnansweredStep)
    /// The connection is gone: closed here, hung up by the peer (and when), refused, unplugged.
    case connectionClosed(ConnectionEnd)
    /// A data phase larger than the caller allowed (kept bounded so a lying device cannot exhaust memory).
    case dataTooLarge(limit: UInt64, announced: UInt64)
    /// A system call on the connection failed: the call, what it was on and the errno. A connection the
    /// peer closed or reset and a wait that ran out are among them (see `category`, `isTimeout`).
    case system(SystemError)
    /// The data to send (the caller's `DataSource`) ended after `sent` of the `announced` bytes.
    case dataSourceEnded(sent: UInt64, announced: UInt64)
    /// A data phase of `bytes` is more than this transport can frame (`limit`: Fuji's 4 GiB containers).
    case dataPhaseTooLarge(bytes: UInt64, limit: UInt64)
    /// This program used a connection or a server against its rules (a bug here, never the device's).
    case misuse(Misuse)
    /// A USB transfer that failed with a libusb code none of the other cases covers.
    case usbTransfer(USBTransferFailure)
    /// The USB device still failed (`failure`) after the transport tried to recover it: Get Device Status,
    /// Cancel and clear-halt, then a port reset (`portReset`).
    indirect case unrecovered(PTPError, portReset: PortReset)

    public var description: String {
        switch self {
        case .response(let code, let operation, _):
            "\(operation) failed: \(code) (0x\(hex4(code.rawValue)))"
        case .malformed(let malformation): "malformed data from device: \(malformation)"
        case .protocolViolation(let violation): "protocol error: \(violation)"
        case .timeout(let wait): "timed out: \(wait)"
        case .unanswered(let step): step.description
        case .connectionClosed(let end): "connection closed: \(end)"
        case .dataTooLarge(let limit, let announced):
            "device announced \(announced) bytes, more than the \(limit) allowed here"
        case .system(let error):
            error.isConnectionClosed ? "connection closed: \(error)" : error.isTimeout ? "timed out: \(error)" : "\(error)"
        case .dataSourceEnded(let sent, let announced): "the data to send ended after \(sent) of \(announced) bytes"
        case .dataPhaseTooLarge(let bytes, _): "a data phase of \(bytes) bytes does not fit one Fuji container (4 GiB at most)"
        case .misuse(let misuse): misuse.description
        case .usbTransfer(let failure): failure.description
        case .unrecovered(let failure, let portReset):
            "\(failure); the device was still stuck after \(portReset.stepsTried)"
                + ". Unplug the camera or switch it off and on, then open it again"
        }
    }

    /// A failed system call as PTP sees it.
    public init(_ error: SystemError) { self = .system(error) }

    /// No answer within the time allowed: a transport's own timeout or a socket's wait that ran out.
    public var isTimeout: Bool {
        switch self {
        case .timeout: true
        case .system(let error): error.isTimeout
        case .unrecovered(let failure, _): failure.isTimeout
        default: false
        }
    }

    /// The response code, when the device answered with one.
    public var responseCode: ResponseCode? {
        if case .response(let code, _, _) = self { return code }
        return nil
    }

    /// Whether this is the device's `code` in answer to `operation`, in whichever transaction.
    public func isResponse(_ code: ResponseCode, to operation: OperationCode) -> Bool {
        if case .response(code, operation, _) = self { return true }
        return false
    }
}

extension PTPError: CategorizedError {
    /// DeviceBusy is `.busy`, OperationNotSupported `.notSupported`, any other response or bad data from the
    /// device `.deviceFault`.
    public var category: FailureCategory {
        switch self {
        case .response(let code, _, _):
            switch code {
            case .deviceBusy: .busy
            case .operationNotSupported: .notSupported
            case .transactionCancelled: .cancelled
            default: .deviceFault
            }
        case .malformed, .protocolViolation, .dataTooLarge: .deviceFault
        case .timeout, .unanswered: .timedOut
        case .connectionClosed: .disconnected
        case .system(let error): error.isConnectionClosed ? .disconnected : error.isTimeout ? .timedOut : .localIO
        case .dataSourceEnded, .usbTransfer: .localIO
        case .dataPhaseTooLarge, .misuse: .invalidRequest
        case .unrecovered(let failure, _): failure.category
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

extension PTPError {
    /// A connection or server used against its rules by this program.
    public enum Misuse: Equatable, Sendable, CustomStringConvertible {
        /// `start()` on a server that was started already.
        case startedTwice(server: String, address: String)
        /// A transaction begun while another one was under way on the same connection.
        case concurrentTransactions(connection: String, peer: String)

        public var description: String {
            switch self {
            case .startedTwice(let server, let address): "the \(server) server on \(address) was already started"
            case .concurrentTransactions(let connection, let peer): "two transactions at once on the \(connection) connection to \(peer)"
            }
        }
    }
}

/// A USB transfer libusb failed: its code and name (`LIBUSB_ERROR_IO`), the operation and the device.
public struct USBTransferFailure: Equatable, Sendable, CustomStringConvertible {
    /// libusb's error code (negative).
    public var code: Int32
    /// libusb's name for the code: `LIBUSB_ERROR_IO`.
    public var name: String
    /// libusb's text for the code (`libusb_strerror`), as `SystemError.reason` is the C library's.
    public var reason: String
    public var operation: String
    public var peer: String

    public init(code: Int32, name: String, reason: String, operation: String, peer: String) {
        self.code = code
        self.name = name
        self.reason = reason
        self.operation = operation
        self.peer = peer
    }

    public var description: String { "\(operation): USB transfer to \(peer) failed: \(name) (\(reason))" }
}

extension PTPError {
    /// A wait for the peer that ran out: who, how long (nil: no bound given) and what was awaited.
    public struct Wait: Equatable, Sendable, CustomStringConvertible {
        public enum Awaited: Equatable, Sendable {
            /// The first byte of the next packet; `purpose` says what it was to be, where the transport knows.
            case firstByte(purpose: String?)
            /// The Pong that answers a Ping on the event connection.
            case pong
            /// The next message of an in-memory peer.
            case message
            /// A USB transfer of `operation`, which libusb ended with its timeout code (`code`: its name).
            case usbTransfer(operation: String, code: String)
        }

        public var peer: String
        public var seconds: Double?
        public var awaited: Awaited

        public init(peer: String, seconds: Double?, awaited: Awaited) {
            self.peer = peer
            self.seconds = seconds
            self.awaited = awaited
        }

        /// `127.0.0.1:15740 sent nothing for 5.0 s`, `no Pong from 127.0.0.1:15740 within 2.0 s`.
        public var description: String {
            switch awaited {
            case .firstByte(let purpose):
                "\(peer) sent nothing for \(formatSeconds(seconds))" + (purpose.map { " (waiting for \($0))" } ?? "")
            case .pong: "no Pong from \(peer) within \(formatSeconds(seconds))"
            case .message: "no message from \(peer)"
            case .usbTransfer(let operation, let code):
                "\(operation): \(peer) did not answer within \(formatSeconds(seconds)) (\(code))"
            }
        }
    }

    /// The last step of a USB recovery: the port reset, done (and the device still stuck), or failed.
    public enum PortReset: Equatable, Sendable {
        case done
        /// The reset itself failed; `code` names why (libusb's name for its code).
        case failed(code: String)

        /// `Get Device Status, Cancel, clear-halt and a USB port reset`.
        var stepsTried: String {
            switch self {
            case .done: "Get Device Status, Cancel, clear-halt and a USB port reset"
            case .failed(let code): "Get Device Status, Cancel and clear-halt (the USB port reset failed: \(code))"
            }
        }
    }
}

extension PTPError {
    /// How a connection ended, as facts: who ended it, when, and what was under way.
    public enum ConnectionEnd: Equatable, Sendable, CustomStringConvertible {
        /// This side closed it (`close()`), during `operation` when one was under way. `transport` names the
        /// connection ("PTP/IP", "USB", "Fuji"); nil for a responder's.
        case closedHere(transport: String?, peer: String, during: String?)
        /// An earlier failure (`after`, as it was told) left the stream out of step, so it was given up.
        case unusable(transport: String, peer: String, after: String)
        /// The peer hung up, at `moment` when the transport knows it.
        case hungUp(peer: String, moment: Moment?)
        /// The peer hung up instead of answering the opening packet `request`.
        case hungUpInsteadOfAnswering(peer: String, request: String)
        /// The peer hung up part way through bytes it had begun to send.
        case cutShort(peer: String, CutShort)
        /// The USB device went away during `operation`; `code` is libusb's name for it.
        case unplugged(peer: String, during: String, code: String)
        /// The event connection ended while a Ping waited for its Pong.
        case endedBeforePong(peer: String)
        /// A Ping was asked for a peer that has no event connection.
        case noEventConnection(peer: String)
        /// A virtual camera's quirk dropped the connection on purpose.
        case quirk(String)

        /// When a peer hung up.
        public enum Moment: Equatable, Sendable {
            /// While `operation` was under way.
            case during(String)
            /// Before the data phase it announced.
            case beforeItsDataPhase
            /// In the middle of the data phase it was sending.
            case duringItsDataPhase
            /// In the middle of the data phase this side was sending.
            case duringOurDataPhase
        }

        /// Bytes the peer began to send and did not finish.
        public enum CutShort: Equatable, Sendable {
            /// After `received` bytes of a fixed-size `what` ("a packet header", "an init request").
            case header(what: String, received: Int)
            /// After `received` of the `expected` bytes of `what`.
            case body(what: String, received: Int, expected: Int)
            /// In the middle of a PTP/IP packet of `type`, after `received` of its `expected` bytes.
            case packet(type: String, received: Int, expected: Int)
            /// In the middle of a USB-style container of `kind` (Fuji's), after `received` of `expected` bytes.
            case container(kind: String, received: UInt64, expected: UInt64)
        }

        public var description: String {
            switch self {
            case .closedHere(let transport, let peer, let operation):
                "the \(transport.map { "\($0) " } ?? "")connection to \(peer) was closed" + (operation.map { " during \($0)" } ?? "")
            case .unusable(let transport, let peer, let earlier):
                "the \(transport) connection to \(peer) is unusable after an earlier error: \(earlier)"
            case .hungUp(let peer, nil): "\(peer) closed"
            case .hungUp(let peer, .during(let operation)?): "\(peer) closed the connection during \(operation)"
            case .hungUp(let peer, .beforeItsDataPhase?): "\(peer) closed the connection before its data phase"
            case .hungUp(let peer, .duringItsDataPhase?): "\(peer) closed the connection during its data phase"
            case .hungUp(let peer, .duringOurDataPhase?): "\(peer) closed the connection during a data phase"
            case .hungUpInsteadOfAnswering(let peer, let request): "\(peer) closed the connection instead of answering \(request)"
            case .cutShort(let peer, .header(let what, let received)):
                "\(peer) closed the connection after \(received) bytes of \(what)"
            case .cutShort(let peer, .body(let what, let received, let expected)):
                "\(peer) closed the connection after \(received) of the \(expected) bytes of \(what)"
            case .cutShort(let peer, .packet(let type, let received, let expected)):
                "\(peer) closed the connection in the middle of a \(type) packet (\(received) of \(expected) bytes)"
            case .cutShort(let peer, .container(let kind, let received, let expected)):
                "\(peer) closed the connection in the middle of a \(kind) container (\(received) of \(expected) bytes)"
            case .unplugged(let peer, let operation, let code):
                "\(peer) was disconnected during \(operation) (\(code)); plug it in and open it again"
            case .endedBeforePong(let peer): "event connection to \(peer) ended before its Pong"
            case .noEventConnection(let peer): "\(peer) has no event connection to ping"
            case .quirk(let name): "closed by the \(name) quirk"
            }
        }
    }
}
