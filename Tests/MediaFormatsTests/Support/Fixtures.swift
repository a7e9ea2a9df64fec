import Foundation
import MediaFormats
import MediaManager
import TestSupport

/// The demo media committed in Sources/VirtualCamera/DemoMedia, found from this file's path so tests need
/// no bundle lookups.
enum Fixtures {
    static let videos = [
        "landscape_faststart.mp4", "portrait_moovend.mp4", "clip.mov",
        "landscape_proxy_160x90.lrf", "portrait_proxy_160x90.lrf",
    ]
    static let photos = ["photo_landscape.jpg", "photo_portrait.jpg", "photo_rotated_orientation6.jpg"]

    static var directory: URL { DemoMedia.directory }

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
