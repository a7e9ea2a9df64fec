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

    /// Every extension the kinds name, in every case mix, and what lies next to them: one byte more or
    /// less, a NUL before it, a non-ASCII letter (each extension is matched as one packed integer).
    @Test func everyExtensionAndItsNeighbours() {
        let extensions: [MediaKind: [String]] = [
            .jpeg: ["jpg", "jpeg", "jpe"],
            .raw: ["dng", "cr2", "cr3", "nef", "nrw", "arw", "srf", "sr2", "raf", "orf", "rw2", "pef", "srw"],
            .tiff: ["tif", "tiff"], .heic: ["heic", "heif", "hif"], .mp4: ["mp4", "m4v"], .mov: ["mov"],
            .lowResolutionVideo: ["lrf"], .telemetry: ["srt"], .thumbnail: ["thm"],
        ]
        for (kind, names) in extensions {
            for ext in names {
                #expect(MediaKind(fileName: "A." + ext) == kind, "\(ext)")
                #expect(MediaKind(fileName: "A." + ext.uppercased()) == kind, "\(ext)")
                #expect(MediaKind(fileName: "A." + ext.prefix(1).uppercased() + ext.dropFirst()) == kind, "\(ext)")
                #expect(MediaKind(fileName: "A." + ext + "x") == .other, "\(ext)x")
                #expect(MediaKind(fileName: "A." + ext.dropLast()) == .other || names.contains(String(ext.dropLast())), "\(ext)")
                #expect(MediaKind(fileName: "A.\u{0}" + ext) == .other, "NUL \(ext)")
                #expect(MediaKind(fileName: "A." + ext + "\u{0}") == .other, "\(ext) NUL")
            }
        }
        #expect(MediaKind(fileName: "A.jpé") == .other)
        #expect(MediaKind(fileName: "A.JPG.") == .other)
        #expect(MediaKind(fileName: "A.") == .other)
    }

    @Test func groups() {
        #expect(MediaKind.jpeg.isImage && MediaKind.raw.isImage && !MediaKind.mp4.isImage)
        #expect(MediaKind.mp4.isVideo && MediaKind.mov.isVideo && MediaKind.lowResolutionVideo.isVideo)
        #expect(MediaKind.telemetry.isSidecar && MediaKind.thumbnail.isSidecar && !MediaKind.jpeg.isSidecar)
    }
}
