import Foundation
import MediaFormats

/// The demo media committed in Sources/VirtualCamera/DemoMedia, found from this file's path so tests need
/// no bundle lookups.
enum Fixtures {
    static let videos = [
        "landscape_faststart.mp4", "portrait_moovend.mp4", "clip.mov",
        "landscape_proxy_160x90.lrf", "portrait_proxy_160x90.lrf",
    ]
    static let photos = ["photo_landscape.jpg", "photo_portrait.jpg", "photo_rotated_orientation6.jpg"]

    /// The DemoMedia folder: walk up from this source file to the package root.
    static let directory: URL = {
        var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while url.path != "/" {
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
                return url.appendingPathComponent("Sources/VirtualCamera/DemoMedia")
            }
            url = url.deletingLastPathComponent()
        }
        fatalError("no Package.swift above \(#filePath)")
    }()

    static func path(_ name: String) -> String {
        directory.appendingPathComponent(name).path
    }

    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: directory.appendingPathComponent(name)))
    }

    static func source(_ name: String) throws -> FileByteSource {
        try FileByteSource(path: path(name))
    }
}
