import Foundation
import PTP

/// Where an object's bytes come from.
public enum ObjectContent: Sendable {
    /// A file on disk, given by its path relative to the card's root folder.
    case file(relativePath: String)
    /// A file outside the card that is served read-only (demo card media bundled with the program).
    case resource(path: String)
    /// Bytes held in memory (captured images on the demo card, generated sidecars).
    case bytes([UInt8])
    /// `length` bytes computed from their offset, never stored: for very large test files.
    case generated(length: UInt64)
    /// A folder.
    case folder
}

/// One file or folder on the virtual card.
public struct CardObject: Sendable {
    public var handle: UInt32
    public var storageID: UInt32
    /// 0 for objects at the root of their store.
    public var parent: UInt32
    public var name: String
    public var content: ObjectContent
    public var size: UInt64
    public var modified: Date
    public var format: ObjectFormatCode

    public var isFolder: Bool { if case .folder = content { return true } else { return false } }
}

/// The byte at `offset` of a generated object: a pattern that differs at every offset within a 4 GiB
/// window and across windows, so misplaced or repeated chunks are caught by a byte-for-byte comparison.
@inline(__always)
public func generatedByte(at offset: UInt64) -> UInt8 {
    let x = offset &* 0x9E37_79B9_7F4A_7C15
    return UInt8(truncatingIfNeeded: (x >> 56) ^ (offset >> 32) ^ offset)
}

extension ObjectFormatCode {
    /// The format a camera would report for a file of this name.
    public init(fileName: String) {
        let ext = fileName.split(separator: ".").count > 1 ? fileName.split(separator: ".").last!.lowercased() : ""
        switch ext {
        case "jpg", "jpeg", "jpe": self = .exifJPEG
        case "dng": self = .dng
        case "tif", "tiff": self = .tiff
        case "png": self = .png
        case "gif": self = .gif
        case "bmp": self = .bmp
        case "heic", "heif", "hif": self = .heif
        case "mp4", "m4v", "lrf": self = .mp4Container
        case "mov": self = .quickTime
        case "avi": self = .avi
        case "mpg", "mpeg": self = .mpeg
        case "wav": self = .wav
        case "mp3": self = .mp3
        case "txt", "srt": self = .text
        default: self = .undefined
        }
    }
}
