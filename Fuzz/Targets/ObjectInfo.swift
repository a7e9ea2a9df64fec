// libFuzzer target: ObjectInfo in both layouts (32- and 64-bit ObjectCompressedSize).
// Built and run by scripts/fuzz; not part of `swift build`.
import PTP

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzObjectInfo(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    guard let info = try? ObjectInfo(decoding: bytes) else { return 0 }
    _ = info.size
    _ = PTPDateTime.parse(info.captureDate)
    _ = PTPDateTime.parse(info.modificationDate)
    // A standard ObjectInfo with a name encodes and decodes to itself. (The 64-bit layout can be
    // ambiguous: bytes that read both ways, each with a name, are read the standard way, as libgphoto2.)
    if !info.filename.isEmpty, info.wideCompressedSize == nil {
        guard let again = try? ObjectInfo(decoding: info.encoded()), again == info else {
            fatalError("ObjectInfo does not survive its own encoding")
        }
    }
    return 0
}
