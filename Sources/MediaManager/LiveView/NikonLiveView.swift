import PTP

/// Nikon live view, as libgphoto2 drives it: ChangeCameraMode(1) where the body has it, StartLiveView
/// (0x9201) and DeviceReady until the body is ready, then GetLiveViewImg (0x9203) for each frame: a header of
/// the body's own (64 to 384 bytes, by model) and the JPEG, found by its start marker. DeviceBusy: no frame
/// yet. NotLiveView (the body left live view, as a D7000 does after many frames): started again, once.
struct NikonLiveView: LiveViewDialect {
    let dialect: NikonDialect

    func start(_ session: PTPSession) throws {
        if session.supports(.nikonChangeCameraMode) {
            do {
                try session.execute(.nikonChangeCameraMode, [1])
            } catch PTPError.response(.nikonChangeCameraModeFailed, _, _) {
                // A body already under control says so; libgphoto2 goes on too.
            }
        }
        do {
            try session.execute(.nikonStartLiveView)
        } catch PTPError.response(.deviceBusy, _, _) {
            // Starting: DeviceReady says when it is.
        }
        try dialect.waitUntilReady(session)
    }

    func frame(_ session: PTPSession) throws -> [UInt8]? {
        do {
            return try Self.jpeg(in: session.request(.nikonGetLiveViewImg, limit: 16 << 20))
        } catch PTPError.response(.deviceBusy, _, _) {
            return nil
        } catch PTPError.response(.nikonNotLiveView, _, _) {
            try start(session)
            return nil
        }
    }

    func stop(_ session: PTPSession) {
        _ = try? session.execute(.nikonEndLiveView)
    }

    /// The JPEG after the header: from the first start-of-image marker (FF D8 FF) on.
    static func jpeg(in data: [UInt8]) throws(LiveViewError) -> [UInt8] {
        guard data.count >= 3, let start = (0..<(data.count - 2)).first(where: { data[$0] == 0xFF && data[$0 + 1] == 0xD8 && data[$0 + 2] == 0xFF })
        else { throw .malformed("no JPEG in \(data.count) bytes") }
        return Array(data[start...])
    }
}
