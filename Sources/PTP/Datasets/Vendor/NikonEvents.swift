/// What a Nikon body's GetEvent (0x90C7) answers: u16 count, then per event u16 code and u32 parameter
/// (libgphoto2's `ptp_unpack_Nikon_EC`). Both sides use it: the client decodes, the `nikon` persona encodes.
public enum NikonEvents {
    /// The most events one answer is decoded into.
    public static let maximumEvents = 10_000

    /// Decodes an answer; a count larger than the bytes hold is cut to what is there. Empty: no events.
    public static func decode(_ bytes: [UInt8]) -> [PTPEvent] {
        guard bytes.count >= 2 else { return [] }
        let count = Int(UInt16(bytes[0]) | UInt16(bytes[1]) << 8)
        let fitting = min(count, (bytes.count - 2) / 6, maximumEvents)
        return (0..<fitting).map { i in
            let at = 2 + 6 * i
            let code = UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8
            let parameter = UInt32(bytes[at + 2]) | UInt32(bytes[at + 3]) << 8 | UInt32(bytes[at + 4]) << 16
                | UInt32(bytes[at + 5]) << 24
            return PTPEvent(EventCode(code), parameters: [parameter])
        }
    }

    public static func encode(_ events: [PTPEvent]) -> [UInt8] {
        var w = PTPWriter(capacity: 2 + 6 * events.count)
        w.uint16(UInt16(min(events.count, Int(UInt16.max))))
        for event in events.prefix(Int(UInt16.max)) {
            w.uint16(event.code.rawValue)
            w.uint32(event.parameter(0))
        }
        return w.bytes
    }
}
