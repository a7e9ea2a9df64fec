import MediaFormats
import Testing

@Suite("MediaKind")
struct MediaKindTests {
    @Test(arguments: [
        ("DJI_0001.JPG", MediaKind.jpeg), ("a.jpeg", .jpeg), ("DJI_0001.DNG", .raw), ("IMG_1.CR3", .raw),
        ("x.nef", .raw), ("x.ARW", .raw), ("x.raf", .raw), ("x.ORF", .raw), ("x.rw2", .raw), ("x.tif", .tiff),
        ("x.TIFF", .tiff), ("IMG.HEIC", .heic), ("DJI_0003.MP4", .mp4), ("clip.MOV", .mov),
        ("DJI_0003.LRF", .lowResolutionVideo), ("DJI_0003.SRT", .telemetry), ("GOPR.THM", .thumbnail),
        ("notes.txt", .other), ("README", .other), (".jpg", .other), ("archive.tar.gz", .other), ("trailing.", .other),
        ("my photo.final.JPG", .jpeg),
    ])
    func kindFromTheExtension(name: String, kind: MediaKind) {
        #expect(MediaKind(fileName: name) == kind)
    }

    @Test func groups() {
        #expect(MediaKind.jpeg.isImage && MediaKind.raw.isImage && !MediaKind.mp4.isImage)
        #expect(MediaKind.mp4.isVideo && MediaKind.mov.isVideo && MediaKind.lowResolutionVideo.isVideo)
        #expect(MediaKind.telemetry.isSidecar && MediaKind.thumbnail.isSidecar && !MediaKind.jpeg.isSidecar)
    }
}
