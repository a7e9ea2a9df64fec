import Foundation
import MediaFormats
import TestSupport
import Testing

/// The JPEG reader on the demo photos (checked against exiftool) and on synthetic EXIF in both byte orders.
@Suite("JPEGReader", .tags(.process), .notInFastRun)
struct JPEGReaderTests {
    @Test(arguments: Fixtures.photos)
    func photoMatchesExiftool(name: String) throws {
        let info = try JPEGReader().read(from: Fixtures.source(name))
        let reference = try Reference.exif(name)
        #expect(info.width == reference.imageWidth)
        #expect(info.height == reference.imageHeight)
        let exif = try #require(info.exif)
        #expect(exif.make == reference.make)
        #expect(exif.model == reference.model)
        #expect(exif.orientation == reference.orientation)
        #expect(exif.dateTimeOriginal == reference.dateTimeOriginal)
        #expect(exif.byteOrder.rawValue == reference.exifByteOrder)
        let thumbnail = try #require(exif.thumbnail)
        #expect(thumbnail.count == reference.thumbnailLength)
        #expect(exif.thumbnailRange?.lowerBound == reference.thumbnailOffset.map(UInt64.init))
        #expect(exif.thumbnailRange?.count == thumbnail.count)
    }

    @Test(.enabled(if: ExternalTool.exiftool != nil, "needs exiftool"), arguments: Fixtures.photos)
    func thumbnailIsExactlyWhatExiftoolExtracts(name: String) throws {
        let ours = try #require(try JPEGReader().thumbnail(from: Fixtures.source(name)))
        let theirs = try #require(ExternalTool.exiftool).run(["-b", "-ThumbnailImage", Fixtures.path(name)])
        #expect(ours == [UInt8](theirs))
    }

    /// The thumbnail range points at the same bytes in the file, so a camera can serve it by a partial read.
    @Test(arguments: Fixtures.photos)
    func thumbnailRangeAddressesTheFile(name: String) throws {
        let source = try Fixtures.source(name)
        let exif = try #require(try JPEGReader().read(from: source).exif)
        let range = try #require(exif.thumbnailRange)
        #expect(try source.readFully(offset: range.lowerBound, count: range.count) == exif.thumbnail)
        let thumbnail = try JPEGReader().read(from: MemoryByteSource(exif.thumbnail ?? []))
        #expect(thumbnail.width == 160 && thumbnail.height == 120)
    }

    @Test(.enabled(if: ExternalTool.exiftool != nil, "needs exiftool"), arguments: Fixtures.photos)
    func committedReferenceAgreesWithExiftool(name: String) throws {
        let committed = try #require(try Reference.committed().photos.first { $0.sourceFile == name })
        let live = try #require(try Reference.liveExif(name))
        #expect(committed.make == live.make && committed.model == live.model)
        #expect(committed.orientation == live.orientation && committed.dateTimeOriginal == live.dateTimeOriginal)
        #expect(committed.imageWidth == live.imageWidth && committed.imageHeight == live.imageHeight)
        #expect(committed.thumbnailOffset == live.thumbnailOffset && committed.thumbnailLength == live.thumbnailLength)
        #expect(committed.exifByteOrder == live.exifByteOrder)
    }

    @Test func displayedOrientationOfEachPhoto() throws {
        let expected: [(String, DisplayOrientation, Int, Int)] = [
            ("photo_landscape.jpg", .landscape, 1280, 720),
            ("photo_portrait.jpg", .portrait, 720, 1280),
            ("photo_rotated_orientation6.jpg", .portrait, 720, 1280),
        ]
        for (name, orientation, width, height) in expected {
            let info = try JPEGReader().read(from: Fixtures.source(name))
            #expect(info.orientation == orientation, "\(name)")
            #expect(info.displayWidth == width && info.displayHeight == height, "\(name)")
            #expect(info.componentCount == 3 && !info.isProgressive)
        }
    }

    @Test(arguments: Fixtures.photos)
    func readsOnlyTheHeader(name: String) throws {
        let counting = CountingByteSource(try Fixtures.source(name))
        _ = try JPEGReader().read(from: counting)
        #expect(counting.readCount == 1)
        #expect(counting.bytesRead <= 16 << 10)
        #expect(counting.bytesRead * 4 < counting.length)
    }

    @Test(arguments: [false, true])
    func syntheticExifInBothByteOrders(bigEndian: Bool) throws {
        let tiff = TIFFBuilder(bigEndian: bigEndian)
        let thumbnail = SyntheticJPEG.file(width: 16, height: 12)
        let block = tiff.build(
            ifd0: [
                tiff.ascii(0x010F, "DJI"), tiff.ascii(0x0110, "FC3582  "), tiff.short(0x0112, 8),
                tiff.ascii(0x0132, "2024:05:02 11:00:00"),
            ],
            exif: [tiff.ascii(0x9003, "2024:05:02 10:59:59")],
            ifd1: [tiff.short(0x0103, 6)],
            thumbnail: thumbnail)
        let file = SyntheticJPEG.file(exif: block, width: 4000, height: 3000)
        let info = try JPEGReader().read(from: MemoryByteSource(file))
        let exif = try #require(info.exif)
        #expect(exif.byteOrder == (bigEndian ? .bigEndian : .littleEndian))
        #expect(exif.make == "DJI")
        #expect(exif.model == "FC3582")
        #expect(exif.orientation == 8)
        #expect(exif.dateTime == "2024:05:02 11:00:00")
        #expect(exif.dateTimeOriginal == "2024:05:02 10:59:59")
        #expect(exif.thumbnail == thumbnail)
        #expect(info.width == 4000 && info.height == 3000)
        #expect(info.displayWidth == 3000 && info.orientation == .portrait)
        let range = try #require(exif.thumbnailRange)
        #expect(Array(file[Int(range.lowerBound)..<Int(range.upperBound)]) == thumbnail)
    }

    @Test func jpegWithoutExif() throws {
        let info = try JPEGReader().read(from: MemoryByteSource(SyntheticJPEG.file(width: 320, height: 240)))
        #expect(info.exif == nil)
        #expect(info.width == 320 && info.height == 240 && info.orientation == .landscape)
        #expect(try JPEGReader().thumbnail(from: MemoryByteSource(SyntheticJPEG.file())) == nil)
    }

    @Test func exifWithoutThumbnailOrSubIFD() throws {
        let tiff = TIFFBuilder(bigEndian: false)
        let file = SyntheticJPEG.file(exif: tiff.build(ifd0: [tiff.ascii(0x010F, "Hasselblad")]))
        let exif = try #require(try JPEGReader().read(from: MemoryByteSource(file)).exif)
        #expect(exif.make == "Hasselblad")
        #expect(exif.model == nil && exif.orientation == nil && exif.dateTimeOriginal == nil)
        #expect(exif.thumbnail == nil && exif.thumbnailRange == nil)
    }

    @Test func progressiveFillBytesAndStandaloneMarkers() throws {
        var file = SyntheticJPEG.file()
        // Replace SOF0 by SOF2 and put fill bytes and a restart marker before it.
        let sof = SyntheticJPEG.frameHeader(width: 64, height: 48)
        let at = try #require(file.firstRange(of: sof))
        file.replaceSubrange(at, with: [0xFF, 0xD0, 0xFF, 0xFF, 0xFF] + SyntheticJPEG.frameHeader(width: 64, height: 48, marker: 0xC2).dropFirst())
        let info = try JPEGReader().read(from: MemoryByteSource(file))
        #expect(info.isProgressive)
        #expect(info.width == 64)
    }

    @Test func orientationOutsideOneToEightIsIgnored() throws {
        let tiff = TIFFBuilder(bigEndian: true)
        let file = SyntheticJPEG.file(exif: tiff.build(ifd0: [tiff.short(0x0112, 9), tiff.short(0x010F, 5)]))
        let exif = try #require(try JPEGReader().read(from: MemoryByteSource(file)).exif)
        #expect(exif.orientation == nil)
        #expect(exif.make == nil, "a Make that is not text is not shown")
    }
}
