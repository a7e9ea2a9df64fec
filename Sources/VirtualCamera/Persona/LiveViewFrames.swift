import Foundation
import Imaging
import POSIX

/// The live-view frames the `canon-eos` and `nikon` personas serve (and `serve --persona fuji-x` streams on
/// Fuji's live-view socket): a moving picture (a bar crossing a
/// gradient) made at `framesPerSecond` on the monotonic clock, each a JPEG that names its number in a
/// comment (`mediashell live view frame 17`), so that a client's frames can be counted and checked. A
/// session asking again before the next frame is due gets none ("not ready"), as a body answers.
public final class LiveViewFrames: Sendable {
    /// The rate `serve` uses unless `MEDIASHELL_LIVEVIEW_FPS` says another (1 to 120).
    static let standardRate = 20.0
    static let width = 320
    static let height = 240

    public let framesPerSecond: Double
    private let started = MonotonicClock().now()
    /// The last frame made, by number (one JPEG for every session asking for it).
    private let made = Locked<(number: Int, jpeg: [UInt8])?>(nil)

    public init(framesPerSecond: Double = LiveViewFrames.rate()) {
        self.framesPerSecond = framesPerSecond
    }

    /// The rate from the environment, else `standardRate`.
    public static func rate(environment: [String: String] = ProcessInfo.processInfo.environment) -> Double {
        guard let text = environment["MEDIASHELL_LIVEVIEW_FPS"], let rate = Double(text), (1...120).contains(rate) else {
            return standardRate
        }
        return rate
    }

    /// The number of the frame showing now.
    var current: Int { Int((MonotonicClock().now() - started) * framesPerSecond) }

    /// The frame showing now, unless it is `last` (the one this session was given already): nil then.
    public func frame(after last: Int?) -> (number: Int, jpeg: [UInt8])? {
        let number = current
        if let last, number <= last { return nil }
        return made.withLock { made in
            if let made, made.number == number { return made }
            let jpeg = Self.picture(number)
            made = (number, jpeg)
            return made
        }
    }

    /// Frame `number`: a bar crossing a gradient, a full crossing every 64 frames; its number in a comment.
    static func picture(_ number: Int) -> [UInt8] {
        let bar = (number % 64) * width / 64
        let image = RGBImage(width: width, height: height) { x, y in
            if x >= bar && x < bar + 12 { return RGB(250, 250, 250) }
            return RGB(UInt8(x * 255 / width), UInt8(y * 255 / height), UInt8((number * 4) % 256))
        }
        let jpeg = (try? JPEGEncoder.encode(image, quality: 80)) ?? []
        return withComment("mediashell live view frame \(number)", jpeg)
    }

    /// `jpeg` with a COM segment holding `text` right after its start-of-image marker.
    static func withComment(_ text: String, _ jpeg: [UInt8]) -> [UInt8] {
        guard jpeg.starts(with: [0xFF, 0xD8]) else { return jpeg }
        let bytes = Array(text.utf8)
        let length = bytes.count + 2
        return [0xFF, 0xD8, 0xFF, 0xFE, UInt8(length >> 8), UInt8(length & 0xFF)] + bytes + jpeg.dropFirst(2)
    }
}
