import PTP

/// After the handshake, everything on Fuji's command socket (and its event socket) is a USB-style container
/// (`ContainerHeader`). A data phase is one container, whatever its size; the host announces no data phase
/// in its command (libgphoto2 always writes 1 where PTP/IP has it), the container that follows says.
public enum FujiContainer {
    /// The largest data phase one container can carry (its length field is 32 bits, and Fuji has no
    /// "unknown length").
    public static let maximumPayload = UInt64(UInt32.max) - UInt64(ContainerHeader.size)

    /// The head of a data container of `payloadLength` bytes (the payload follows).
    public static func dataHeader(code: UInt16, transactionID: UInt32, payloadLength: UInt64) throws -> [UInt8] {
        guard payloadLength <= maximumPayload else {
            throw PTPError.dataPhaseTooLarge(bytes: payloadLength, limit: maximumPayload)
        }
        return ContainerHeader(
            length: UInt32(payloadLength) + UInt32(ContainerHeader.size), kind: .data, code: code, transactionID: transactionID
        ).encoded()
    }
}

extension ContainerHeader {
    /// A container header read from Fuji's command or event socket.
    public init(fuji bytes: UnsafeRawBufferPointer) throws { try self.init(decoding: bytes, on: "Fuji") }
}
