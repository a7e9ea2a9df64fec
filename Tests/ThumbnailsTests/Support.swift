import Foundation
import Thumbnails
import VirtualCamera

/// A file of the demo card's media (`Sources/VirtualCamera/DemoMedia`), whole.
func demoBytes(_ name: String) throws -> [UInt8] {
    guard let path = DemoMedia.file(name) else { throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: name]) }
    return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
}

/// ffmpeg on this machine's PATH, for the tests of video proxies.
let ffmpegIsInstalled = KeyframeDecoder.find(environment: ProcessInfo.processInfo.environment) != nil
