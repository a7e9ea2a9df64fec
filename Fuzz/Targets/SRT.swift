// libFuzzer target: a DJI clip's .SRT telemetry read whole for its flight (start and end places, highest
// altitudes, duration), as `info` reads a sidecar from the camera.
// Built and run by scripts/fuzz; not part of `swift build`.
import MediaFormats

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSRT(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let flight = FlightSummary(srt: bytes)
    _ = (flight.start, flight.end, flight.highestRelative, flight.duration, flight.isEmpty)
    _ = CaptureTime.srt(String(decoding: bytes, as: UTF8.self))
    return 0
}
