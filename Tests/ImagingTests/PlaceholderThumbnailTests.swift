import Foundation
import Imaging
import Testing

@Suite struct PlaceholderThumbnailTests {
    @Test(arguments: PlaceholderThumbnail.Kind.allCases)
    func isAJPEGOfTheAskedSize(kind: PlaceholderThumbnail.Kind) throws {
        let jpeg = PlaceholderThumbnail.make(kind: kind, width: 160, height: 120, label: "DJI_0001.MP4")
        #expect(Array(jpeg.prefix(2)) == [0xFF, 0xD8])
        #expect(Array(jpeg.suffix(2)) == [0xFF, 0xD9])
        let identified = try Tools.identify(jpeg)
        #expect(identified == "JPEG 160x120")
        if let dir = ProcessInfo.processInfo.environment["PLACEHOLDER_DUMP"] {
            try Data(jpeg).write(to: URL(fileURLWithPath: "\(dir)/\(kind).jpg"))
        }
    }
}
