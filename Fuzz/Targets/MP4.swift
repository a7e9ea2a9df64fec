// libFuzzer target: ISO-BMFF / QuickTime movies (MP4, MOV, DJI LRF): boxes, tracks, sample tables,
// fragments, timelines, as read from a camera's file through partial reads.
// Built and run by scripts/fuzz; not part of `swift build`.
import MediaFormats

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMP4(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    guard let movie = try? MovieReader().read(from: MemoryByteSource(bytes)) else { return 0 }
    _ = (movie.durationSeconds, movie.videoTrack, movie.audioTrack, movie.isTruncated)
    for track in movie.tracks {
        _ = track.frameRate
        _ = track.variableFrameRate
        if let timeline = try? track.timeline.get() { _ = (timeline.frameCount, timeline.durationSeconds) }
    }
    return 0
}
