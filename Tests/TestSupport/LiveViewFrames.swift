import Foundation

/// The number a persona's live-view frame names in its JPEG comment (`mediashell live view frame 17`), so
/// that tests can tell the frames a client got apart; nil for a JPEG without one.
public func liveViewFrameNumber(_ jpeg: [UInt8]) -> Int? {
    let text = String(decoding: jpeg.prefix(80), as: UTF8.self)
    guard let range = text.range(of: "mediashell live view frame ") else { return nil }
    return Int(text[range.upperBound...].prefix { $0.isNumber })
}
