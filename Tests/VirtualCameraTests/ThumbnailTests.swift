import Foundation
import MediaFormats
import PTP
import TestSupport
import Testing
@testable import VirtualCamera

@Suite struct ThumbnailTests {
    static var demo: String { DemoMedia.folder() ?? "" }

    @Test func aJPEGsThumbnailIsItsEXIFThumbnail() throws {
        let photo = Array(try Data(contentsOf: URL(fileURLWithPath: Self.demo + "/photo_landscape.jpg")))
        let h = try Harness(files: ["DCIM/100MEDIA/DJI_0001.JPG": photo])
        defer { #expect(h.finish()) }
        let handle = try #require(try h.handle(of: "DCIM/100MEDIA/DJI_0001.JPG"))
        let thumb = try h.session.getThumb(handle)
        #expect(thumb == (try JPEGReader().thumbnail(from: MemoryByteSource(photo))))
        // The size is reported in ObjectInfo once known.
        #expect(try h.session.getObjectInfo(handle).thumbCompressedSize == UInt32(thumb.count))
    }

    @Test func filesWithoutAThumbnailGetAGeneratedOne() throws {
        let h = try Harness(files: [
            "DCIM/100MEDIA/NOEXIF.JPG": [0xFF, 0xD8, 0xFF, 0xD9], "DCIM/100MEDIA/CLIP.MP4": pattern(100),
            "DCIM/100MEDIA/CLIP.SRT": pattern(10),
        ])
        defer { #expect(h.finish()) }
        for path in ["DCIM/100MEDIA/NOEXIF.JPG", "DCIM/100MEDIA/CLIP.MP4", "DCIM/100MEDIA/CLIP.SRT"] {
            let thumb = try h.session.getThumb(try #require(try h.handle(of: path)))
            let info = try JPEGReader().read(from: MemoryByteSource(thumb))
            #expect(info.width == 160 && info.height == 120, "\(path)")
        }
    }

    @Test func aVideosTHMSidecarGivesItsThumbnail() throws {
        let photo = Array(try Data(contentsOf: URL(fileURLWithPath: Self.demo + "/photo_portrait.jpg")))
        let h = try Harness(files: ["DCIM/100CANON/MVI_0001.MOV": pattern(100), "DCIM/100CANON/MVI_0001.THM": photo])
        defer { #expect(h.finish()) }
        let thumb = try h.session.getThumb(try #require(try h.handle(of: "DCIM/100CANON/MVI_0001.MOV")))
        #expect(thumb == (try JPEGReader().thumbnail(from: MemoryByteSource(photo))))
    }

    @Test func theDemoCardsVideosHaveTheirOwnThumbnails() throws {
        let card = try DemoCard.make()
        let camera = VirtualCamera(card: card)
        let (initiator, responder) = InMemoryTransport.makePair(timeout: 5)
        let done = Mailbox<Void>()
        Thread { camera.serve(responder); done.put(()) }.start()
        let session = PTPSession(transport: initiator)
        try session.open()
        let video = try #require(card.handle(forPath: "DCIM/100MEDIA/DJI_0005.MP4"))
        let expected = Array(try Data(contentsOf: URL(fileURLWithPath: Self.demo + "/portrait_moovend.thumb.jpg")))
        #expect(try session.getThumb(video) == expected)
        session.close()
        #expect(done.take(timeout: 10) != nil)
    }
}
