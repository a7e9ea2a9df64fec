import POSIX

/// Why a responder refused an initiator in Init_Fail (PTP/IP's only refusal): the standard's three reasons,
/// and any other value a camera sends, kept as it came.
public struct InitFailReason: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// The responder does not accept this initiator (its GUID is not paired, or was declined).
    public static let rejectedInitiator = InitFailReason(rawValue: 1)
    /// The responder serves another initiator and takes no second one.
    public static let busy = InitFailReason(rawValue: 2)
    public static let unspecified = InitFailReason(rawValue: 3)

    public var description: String {
        switch self {
        case .rejectedInitiator: "rejected initiator"
        case .busy: "busy"
        case .unspecified: "unspecified"
        default: "reason \(rawValue)"
        }
    }
}

/// A PTP/IP responder that answered Init_Command_Request (or Init_Event_Request) with Init_Fail.
public struct PTPIPRefusal: Error, Equatable, Sendable, CustomStringConvertible {
    /// "192.168.1.10:15740"
    public var peer: String
    public var reason: InitFailReason

    public init(peer: String, reason: InitFailReason) {
        self.peer = peer
        self.reason = reason
    }

    public var description: String { "\(peer) refused the connection (Init_Fail: \(reason))" }
}

/// How an initiator waits for a camera that asks its user, on its own screen, to accept a computer it has
/// not seen before: Init_Command_Ack may then take as long as the user takes. Once `notice` seconds have
/// passed without an answer, `onWaiting` is told (the shell says what to do on the camera), and the wait
/// goes on up to `seconds` in all.
public struct FirstContactWait: Sendable {
    public var seconds: Double
    public var notice: Double
    public var onWaiting: @Sendable (_ seconds: Double) -> Void

    public init(seconds: Double = 60, notice: Double = 1, onWaiting: @escaping @Sendable (_ seconds: Double) -> Void) {
        self.seconds = seconds
        self.notice = min(notice, seconds)
        self.onWaiting = onWaiting
    }
}

/// A 16-byte GUID as people type and read it: 32 hexadecimal digits; and a fresh one.
public enum GUIDText {
    /// 16 bytes from the system's random source.
    public static func random() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    public static func format(_ guid: [UInt8]) -> String {
        let digits = Array("0123456789ABCDEF")
        return String(guid.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xF)]] })
    }

    /// 32 hexadecimal digits (dashes, colons and spaces between them ignored, as in `0123-4567-...`); nil
    /// for anything else.
    public static func parse(_ text: String) -> [UInt8]? {
        let digits = text.filter { !"-: ".contains($0) }.compactMap(\.hexDigitValue)
        guard digits.count == 32, text.filter({ !"-: ".contains($0) }).count == 32 else { return nil }
        return stride(from: 0, to: 32, by: 2).map { UInt8(digits[$0] << 4 | digits[$0 + 1]) }
    }
}
