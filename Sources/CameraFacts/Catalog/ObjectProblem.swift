import Foundation
import PTPFacts

/// Why one object was left out of (or repaired in) a listing, naming it as well as the device allows.
public struct ObjectProblem: Sendable, Equatable, CustomStringConvertible {
    /// What was wrong with the object, with what the device said of it.
    public enum Cause: Sendable, Equatable {
        /// Its description could not be read (a malformed ObjectInfo, an error answered for it).
        case undescribed(PTPError)
        /// Kept, under a made-up name: the device gives it no name, neither in a property list nor in its
        /// ObjectInfo. What the ObjectInfo said is kept, for the error that names it when nothing else was
        /// read (`UnreadableListing`).
        case nameless(format: ObjectFormatCode, size: UInt64, parent: UInt32)
        /// Kept: its name is not valid UTF-16 (shown with U+FFFD).
        case invalidName
        /// Kept: a format no standard defines, and a name that does not say what it is.
        case unknownFormat(ObjectFormatCode)
        /// Kept, in the folder listed: its ParentObject names something that is no folder.
        case parentNotAFolder(UInt32)
    }

    /// The folder it sits in ("" at the root).
    public var folder: String
    public var handle: UInt32
    /// Its name, when that much could be read.
    public var name: String?
    public var cause: Cause

    public init(folder: String, handle: UInt32, name: String?, cause: Cause) {
        self.folder = folder
        self.handle = handle
        self.name = name
        self.cause = cause
    }

    public var reason: String {
        switch cause {
        case .undescribed(let error): "\(error)"
        case .nameless(let format, let size, let parent):
            "the camera gives it no name (format 0x\(String(format: "%04X", format.rawValue)), \(size) bytes, parent 0x\(hex8(parent))): listed as 'unnamed'"
        case .invalidName: "its name is not valid UTF-16 (shown with U+FFFD)"
        case .unknownFormat(let format):
            "the camera gives its format as 0x\(String(format: "%04X", format.rawValue)), which no standard defines, "
                + "and its name does not say what it is: listed as a file"
        case .parentNotAFolder(let parent):
            "the camera gives its parent as 0x\(hex8(parent)), which is no folder: listed in the folder that holds it"
        }
    }

    /// True for an object kept without a name of its own.
    public var isNameless: Bool {
        if case .nameless = cause { return true }
        return false
    }

    public var description: String {
        let place = folder.isEmpty ? "/" : "/" + folder + "/"
        let what = name.map { place + $0 } ?? "object 0x\(hex8(handle)) in \(place)"
        return "\(what): \(reason)"
    }
}
