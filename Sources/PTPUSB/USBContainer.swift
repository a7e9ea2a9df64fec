import PTP

/// What only USB adds to the still image class container (`ContainerHeader`): a data phase past 4 GiB
/// announces `unknownLength` and ends with a short packet.
enum USBContainer {
    /// The header of a data phase of `payload` bytes (lengths past 4 GiB announce 0xFFFFFFFF).
    static func dataHeader(code: UInt16, transactionID: UInt32, payload: UInt64) -> [UInt8] {
        let total = payload + UInt64(ContainerHeader.size)
        return ContainerHeader(
            length: total >= UInt64(ContainerHeader.unknownLength) ? ContainerHeader.unknownLength : UInt32(total),
            kind: .data, code: code, transactionID: transactionID
        ).encoded()
    }
}

extension ContainerHeader {
    /// A container header read from the USB bulk-in pipe.
    init(usb bytes: UnsafeRawBufferPointer) throws { try self.init(decoding: bytes, on: "USB") }
}
