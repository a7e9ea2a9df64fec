// libFuzzer target: DeviceInfo (GetDeviceInfo's dataset), StorageInfo, and what is decoded from it.
// Built and run by scripts/fuzz; not part of `swift build`.
import PTP

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDeviceInfo(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    if let info = try? DeviceInfo(decoding: bytes) {
        // What the session and the trace derive from it.
        _ = VendorDialect(info)
        _ = info.supports(.getObjectPropList)
        // Decoded once, a DeviceInfo encodes and decodes to itself.
        guard let again = try? DeviceInfo(decoding: info.encoded()), again == info else {
            fatalError("DeviceInfo does not survive its own encoding")
        }
    }
    _ = try? StorageInfo(decoding: bytes)
    return 0
}
