// libFuzzer target: DevicePropDesc datasets (GetDevicePropDesc) and single values (GetDevicePropValue).
// Built and run by scripts/fuzz; not part of `swift build`.
import PTP

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDevicePropDesc(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    if let description = try? DevicePropertyDescription(decoding: bytes) {
        _ = description.encoded()
    }
    // A value of the type the first two bytes name, from the rest.
    if bytes.count >= 2 {
        var reader = PTPReader(Array(bytes.dropFirst(2)), context: "value")
        let type = DataTypeCode(UInt16(bytes[0]) | UInt16(bytes[1]) << 8)
        if let value = try? PTPValue.decode(type, from: &reader) { _ = value.unsignedValue }
    }
    return 0
}
