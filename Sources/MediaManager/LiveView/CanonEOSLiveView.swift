import PTP

/// Canon EOS live view, as libgphoto2 drives it: EVFOutputDevice (0xD1B0) gets the PC bit (2) through
/// SetDevicePropValueEx, then GetViewFinderData (0x9153) gives the newest frame in blocks of u32 length
/// (the 8 header bytes included), u32 type, data; the JPEG is type 1 (11 on newer bodies). The body answers
/// 0xA102 or DeviceBusy while no frame is ready. Stopping sets the body's own screen (1) again.
struct CanonEOSLiveView: LiveViewDialect {
    /// GetViewFinderData's first parameter, as libgphoto2 sends it.
    static let viewFinderParameter: UInt32 = 0x0020_0000
    static let pc: UInt32 = 2
    static let screen: UInt32 = 1

    func start(_ session: PTPSession) throws {
        try Self.setOutput(Self.pc | Self.screen, session)
    }

    func frame(_ session: PTPSession) throws -> [UInt8]? {
        do {
            let data = try session.request(.canonEOSGetViewFinderData, [Self.viewFinderParameter, 0, 0], limit: 16 << 20)
            return try Self.jpeg(in: data)
        } catch let error as PTPError where error.responseCode == .canonEOSNotReady || error.responseCode == .deviceBusy {
            return nil
        }
    }

    func stop(_ session: PTPSession) {
        try? Self.setOutput(Self.screen, session)
    }

    /// SetDevicePropValueEx of EVFOutputDevice: u32 size, u32 property, u32 value.
    static func setOutput(_ value: UInt32, _ session: PTPSession) throws {
        var w = PTPWriter()
        w.uint32(12)
        w.uint32(UInt32(DevicePropertyCode.canonEOSEVFOutputDevice.rawValue))
        w.uint32(value)
        try session.execute(.canonEOSSetDevicePropValueEx, dataOut: BufferSource(w.bytes))
    }

    /// The JPEG among GetViewFinderData's blocks; every block's length is checked against what is left.
    static func jpeg(in data: [UInt8]) throws(LiveViewError) -> [UInt8] {
        var offset = 0
        while data.count - offset >= 8 {
            let length = Int(littleEndian32(data, offset))
            let type = littleEndian32(data, offset + 4)
            guard length >= 8, length <= data.count - offset else {
                throw .malformed("a block of \(length) bytes at byte \(offset) of \(data.count)")
            }
            if type == 1 || type == 11 { return Array(data[(offset + 8)..<(offset + length)]) }
            offset += length
        }
        throw .malformed("no JPEG block in \(data.count) bytes")
    }

    static func littleEndian32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
    }
}
