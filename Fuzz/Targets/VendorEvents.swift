// libFuzzer target: the vendor event lists a camera answers to its GetEvent, Canon EOS records (0x9116)
// and Nikon's list (0x90C7), decoded as the dialects decode them; what decodes encodes again.
// Built and run by scripts/fuzz; not part of `swift build`.
import PTP

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzVendorEvents(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let records = CanonEOSEvent.decode(bytes)
    if records.count > CanonEOSEvent.maximumRecords { fatalError("more EOS records than the bound") }
    // Records decoded once decode to themselves after encoding (the persona's side of the same format).
    let again = CanonEOSEvent.decode(CanonEOSEvent.encode(records))
    if again.count != records.count { fatalError("EOS records do not survive their own encoding") }
    let events = NikonEvents.decode(bytes)
    if events.count > NikonEvents.maximumEvents || NikonEvents.decode(NikonEvents.encode(events)) != events {
        fatalError("Nikon events do not survive their own encoding")
    }
    return 0
}
