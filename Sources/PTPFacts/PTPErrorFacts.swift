/// Bytes from the peer that do not decode, as facts: which structure, what was wrong with it (where, expected
/// against found), and, when the transport knows them, the operation and the peer.
public struct Malformation: Equatable, Sendable, CustomStringConvertible {
    /// The structure that did not decode, by its protocol name: a dataset (`ObjectPropList`), a packet or a
    /// container (`PTP/IP Cmd_Request packet`, `USB response container`).
    public var structure: String
    public var defect: Defect
    /// The operation whose data phase or answer it was, when known.
    public var operation: OperationCode?
    /// Who sent it (`127.0.0.1:15740`, `usb:001,004`), when known.
    public var peer: String?

    public init(_ structure: String, _ defect: Defect, operation: OperationCode? = nil, peer: String? = nil) {
        self.structure = structure
        self.defect = defect
        self.operation = operation
        self.peer = peer
    }

    /// What was wrong with the structure.
    public enum Defect: Equatable, Sendable {
        /// `field` (`u32`, `string`, `array`) needed more bytes than remain at `offset` of `total`.
        case truncated(field: String, offset: Int, total: Int)
        /// The length field says `announced` bytes; `actual` bytes came (or the structure has).
        case lengthMismatch(announced: UInt64, actual: UInt64)
        /// The length field says `length`, less than the structure's own header of `header` bytes.
        case shorterThanHeader(length: UInt64, header: Int)
        /// The length field says `length`, more than the `limit` allowed for this structure.
        case longerThanAllowed(length: UInt64, limit: UInt64)
        /// A type code no version of the protocol defines.
        case unknownType(UInt32)
        /// A PTP data type this decoder does not read (`array`: the element type of an array).
        case unsupportedDataType(UInt16, array: Bool)
        /// `field` holds `value`, which the protocol does not allow there.
        case invalidValue(field: String, value: UInt64)
        /// `field` should hold `expected` and holds `found`.
        case mismatch(field: String, expected: UInt64, found: UInt64)
        /// `length` bytes where the structure is `expected` bytes long.
        case unexpectedLength(length: Int, expected: Int)
        /// The length field says `length`, outside the `minimum`...`maximum` the structure may have.
        case lengthOutOfRange(length: UInt64, minimum: UInt64, maximum: UInt64)
        /// `length` bytes where the structure needs at least `minimum`.
        case tooShort(length: Int, minimum: Int)
        /// `count` elements announced where `room` bytes cannot hold them.
        case countExceedsRoom(count: Int, room: Int)
        /// The elements ended after `read` of the `count` announced, in `bytes` bytes.
        case endedEarly(read: Int, count: Int, bytes: Int)
        /// An element of `length` bytes at `offset` runs past the end of the answer.
        case elementPastEnd(length: Int, offset: Int)
        /// `count` parameters where the protocol allows at most five.
        case tooManyParameters(Int)
        /// `count` bytes left over after the last field.
        case trailingBytes(Int)
        /// `field` is absent.
        case missing(field: String)
        /// Text in `field` without its terminating NUL.
        case unterminatedText(field: String)
        /// Text in `field` that is not valid UTF-16.
        case invalidText(field: String)
        /// The peer sent `sent` bytes after announcing `announced`.
        case overrun(sent: UInt64, announced: UInt64)
        /// The peer sent more than a USB transfer of `transfer` asked for; `code` is libusb's name for it.
        case transferOverflow(transfer: String, code: String)
    }

    /// `ObjectPropList: truncated u32 at byte 0 of 3`, `GetObject: 127.0.0.1:15740 sent 20 bytes after
    /// announcing 10`: for logs and for the shell, which adds what to do.
    public var description: String {
        let source = [operation.map { "\($0)" }, peer].compactMap { $0 }.joined(separator: ": ")
        let prefix = source.isEmpty ? "" : source + ": "
        return prefix + "\(structure) " + defectWords
    }

    private var defectWords: String {
        switch defect {
        case .truncated(let field, let offset, let total): "truncated \(field) at byte \(offset) of \(total)"
        case .lengthMismatch(let announced, let actual): "announces \(announced) bytes, \(actual) came"
        case .shorterThanHeader(let length, let header):
            "announces \(length) bytes, shorter than its header (\(header) bytes)"
        case .longerThanAllowed(let length, let limit): "claims \(length) bytes, more than the \(limit) allowed"
        case .unknownType(let type): "of unknown type \(type)"
        case .unsupportedDataType(let type, let array):
            "with \(array ? "an array of " : "")unsupported data type 0x\(hex4(type))"
        case .invalidValue(let field, let value): "with \(field) \(value), which the protocol does not allow"
        case .mismatch(let field, let expected, let found):
            "with \(field) 0x\(String(found, radix: 16)) where 0x\(String(expected, radix: 16)) was asked for"
        case .countExceedsRoom(let count, let room): "of \(count) elements cannot fit in \(room) bytes"
        case .unexpectedLength(let length, let expected): "of \(length) bytes, not \(expected)"
        case .lengthOutOfRange(let length, let minimum, let maximum):
            "announces \(length) bytes (it is \(minimum) to \(maximum))"
        case .tooShort(let length, let minimum): "of \(length) bytes, fewer than \(minimum)"
        case .endedEarly(let read, let count, let bytes): "truncated after \(read) of \(count) elements (\(bytes) bytes)"
        case .elementPastEnd(let length, let offset): "with an element of \(length) bytes at byte \(offset) that runs past the answer"
        case .tooManyParameters(let count): "with \(count) parameters; at most 5 exist"
        case .trailingBytes(let count): "with \(count) unexpected bytes at the end"
        case .missing(let field): "without its \(field)"
        case .unterminatedText(let field): "with a \(field) without a terminating NUL"
        case .invalidText(let field): "with a \(field) that is not valid UTF-16"
        case .overrun(let sent, let announced): "(sent \(sent) bytes after announcing \(announced))"
        case .transferOverflow(let transfer, let code): "larger than the \(transfer) transfer asked for (\(code))"
        }
    }
}

/// The peer broke the protocol's sequence, as facts: what it did, and, when known, the operation under way and
/// who the peer is.
public struct ProtocolViolation: Equatable, Sendable, CustomStringConvertible {
    public var breach: Breach
    /// The operation under way, when there was one.
    public var operation: OperationCode?
    /// Who broke it, when known.
    public var peer: String?

    public init(_ breach: Breach, operation: OperationCode? = nil, peer: String? = nil) {
        self.breach = breach
        self.operation = operation
        self.peer = peer
    }

    /// What the peer should have sent at that point of the exchange.
    public enum Expectation: Equatable, Sendable {
        /// A command (a responder waiting for the next transaction).
        case command
        /// The data phase this side awaited from the initiator.
        case dataPhase
        /// The rest of the transaction under way: data or the response.
        case transactionContinuation
        /// The answer to `request`, an opening packet (`Init_Command_Request`).
        case answer(to: String)
        /// Nothing, while this side sent its own data phase.
        case silenceDuringOurData
        /// Only Probe_Request packets, on the event connection.
        case eventTraffic
        /// A control packet (an opening packet, a response, an event), not data.
        case controlPacket
    }

    /// What the peer did.
    public enum Breach: Equatable, Sendable {
        /// `sent` (a packet or container: `Start_Data`, `Cmd_Request`, `data container`) where `expected` was due.
        case unexpected(sent: String, expected: Expectation)
        /// `packet` named transaction `found` while `expected` was under way.
        case wrongTransaction(packet: String, found: UInt32, expected: UInt32)
        /// `packet` came a second time in one transaction.
        case repeated(packet: String)
        /// Data came before the packet that announces it (`Start_Data`).
        case dataBeforeItsStart
        /// Data came after the packet that ends it (`End_Data`).
        case dataAfterItsEnd
        /// The peer sent data in a transaction whose data phase was this side's.
        case dataBothWays
        /// The peer answered OK before this side's data phase was sent.
        case answeredBeforeOurData
        /// The response came after `received` of the `expected` bytes of the data phase (nil: not announced).
        case dataPhaseEnded(received: UInt64, expected: UInt64?)
        /// More data than the `expected` bytes its container declared.
        case moreThanDeclared(expected: UInt64)
        /// Nothing but empty USB packets, again and again.
        case onlyEmptyPackets
        /// The device stalled its pipe during `transfer` (an operation or a class request) and clearing the
        /// halt did not help; `code` is libusb's name.
        case stalledAfterClearHalt(transfer: String, code: String)
        /// The device refused the zero-length packet that ends a container of `containerBytes` bytes.
        case refusedZeroLengthPacket(containerBytes: UInt64)
        /// An opening packet of `type` where Fuji's init request (type 1) was due.
        case notFujiInitRequest(type: UInt32)
        /// A Fuji init request without Fuji's magic number; `found` is the number it had.
        case notFujiMagic(found: UInt32)
    }

    /// `GetObject: 127.0.0.1:15740 answered transaction 5, expected 0`: for logs and for the shell.
    public var description: String {
        let who = peer ?? "the peer"
        let prefix = operation.map { "\($0): " } ?? ""
        return prefix + who + " " + breachWords
    }

    private var breachWords: String {
        switch breach {
        case .unexpected(let sent, let expected):
            switch expected {
            case .command: "sent \(sent) while a command was expected"
            case .dataPhase: "sent \(sent) instead of its data phase"
            case .transactionContinuation: "sent \(sent) in the middle of a transaction"
            case .answer(let request): "answered \(request) with \(sent)"
            case .silenceDuringOurData: "sent \(sent) in the middle of our data phase"
            case .eventTraffic: "sent \(sent) on its event connection"
            case .controlPacket: "sent an unexpected \(sent) packet"
            }
        case .wrongTransaction(let packet, let found, let expected):
            packet == "a response"
                ? "answered transaction \(found), expected \(expected)"
                : "sent \(packet) for transaction \(found), expected \(expected)"
        case .repeated(let packet): "sent a second \(packet)"
        case .dataBeforeItsStart: "sent data without Start_Data"
        case .dataAfterItsEnd: "sent data after End_Data"
        case .dataBothWays: "sent data in a transaction that sent data to it"
        case .answeredBeforeOurData: "answered OK before its data phase was sent"
        case .dataPhaseEnded(let received, let expected):
            "ended the data phase after \(received)\(expected.map { " of \($0)" } ?? "") bytes"
        case .moreThanDeclared(let expected): "sent more than the \(expected) bytes its data container declared"
        case .onlyEmptyPackets: "sent only empty packets"
        case .stalledAfterClearHalt(let transfer, let code):
            "stalled the pipe during \(transfer) and clearing the halt did not help (\(code))"
        case .refusedZeroLengthPacket(let total):
            "refused the zero-length packet that ends a container of \(total) bytes; the device cannot take data of this length"
        case .notFujiInitRequest(let type): "sent a first packet of type \(type), not Fuji's init request (type 1)"
        case .notFujiMagic(let found):
            "sent an init request without Fuji's magic number 0x8F53E4F2 (0x\(String(found, radix: 16, uppercase: true)): a PTP/IP initiator?)"
        }
    }
}
