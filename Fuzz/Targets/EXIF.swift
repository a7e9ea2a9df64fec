// libFuzzer target: JPEG structure and its EXIF block (capture times, orientation, thumbnails' places,
// every tag and what `info` makes of them), and the TIFF structure at the start of a raw file, as read
// from a camera's file through partial reads.
// Built and run by scripts/fuzz; not part of `swift build`.
import MediaFormats

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEXIF(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    if let info = try? JPEGReader().read(from: MemoryByteSource(bytes)) {
        _ = (info.displayWidth, info.displayHeight, info.exif)
        _ = ExifDetails(tags: info.exif?.tags ?? [])
    }
    if let tags = try? ExifReader().tags(from: MemoryByteSource(bytes)) {
        _ = (ExifDetails(tags: tags), tags.map { ($0.description, $0.converted) })
    }
    _ = MediaKind(contentStart: bytes)
    return 0
}
