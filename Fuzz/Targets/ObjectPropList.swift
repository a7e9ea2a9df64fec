// libFuzzer target: GetObjectPropList answers, decoded whole (ObjectPropList, ListedObject.decodeAll) and
// as they arrive (ListedObjectDecoder, fed in pieces whose sizes the input's first byte chooses), which
// must agree: the streaming decoder promises the whole decoder's result and errors.
// Built and run by scripts/fuzz; not part of `swift build`.
import PTP

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzObjectPropList(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    guard let first = input.first else { return 0 }
    let bytes = Array(input.dropFirst())
    if let list = try? ObjectPropList(decoding: bytes) { _ = list.byObject() }
    let whole = Result { try ListedObject.decodeAll(bytes) }
    let piece = Int(first % 64) + 1
    let streamed = Result { () throws -> [ListedObject] in
        let decoder = ListedObjectDecoder(limit: max(bytes.count, 1))
        try decoder.begin(expectedLength: first & 0x80 == 0 ? UInt64(bytes.count) : nil)
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + piece)
            try bytes[offset..<end].withUnsafeBytes { try decoder.write($0) }
            offset = end
        }
        return try decoder.finish()
    }
    switch (whole, streamed) {
    case (.success(let a), .success(let b)):
        if a != b { fatalError("streamed listing differs from the whole one") }
    case (.success, .failure(let error)):
        // Without an announced length the streaming decoder cannot refuse early what the whole one reads.
        fatalError("streamed listing failed where the whole one decoded: \(error)")
    default:
        break
    }
    return 0
}
