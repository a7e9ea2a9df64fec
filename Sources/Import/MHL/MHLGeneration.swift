import Checksums
import Foundation

/// One generation of an ASC MHL history (`ascmhl/0001_ROOT_DATE.mhl`): who made it and how, the files it
/// records under the root (each with its size, modification time and hash, and what that hash is: the
/// original, or a later check that matched or failed), and the folders' hashes. The facts follow the ASC MHL
/// v2.0 specification (ascmitc/mhl-specification) and its schema (`urn:ASC:MHL:v2.0`).
public struct MHLGeneration: Sendable, Equatable {
    /// What a recorded hash says of the file.
    public enum Action: String, Sendable {
        /// The first hash of the file, made as it was written (an import).
        case original
        /// A later hash that matched the original.
        case verified
        /// A later hash that did not: the file changed.
        case failed
    }

    /// How the files came to be where they are recorded.
    public enum Process: String, Sendable {
        /// Hashed where they were (`ascmhl create`, a re-check).
        case inPlace = "in-place"
        /// Copied here from elsewhere (an import from a card).
        case transfer
        case flatten
    }

    /// One hash of a file, as recorded.
    public struct Hash: Sendable, Equatable {
        public var checksum: Checksum
        public var action: Action?
        /// When it was computed.
        public var date: Date?

        public init(_ checksum: Checksum, action: Action?, date: Date?) {
            self.checksum = checksum
            self.action = action
            self.date = date
        }
    }

    /// One file under the root.
    public struct File: Sendable, Equatable {
        /// Relative to the root, `/` between folders.
        public var path: String
        public var size: UInt64?
        public var modified: Date?
        public var hashes: [Hash]

        public init(path: String, size: UInt64?, modified: Date?, hashes: [Hash]) {
            self.path = path
            self.size = size
            self.modified = modified
            self.hashes = hashes
        }
    }

    /// A folder's two hashes (`MHLDirectoryHashes`): of its files' contents, and of its names as well.
    public struct FolderHash: Sendable, Equatable {
        /// Relative to the root; empty for the root itself.
        public var path: String
        public var modified: Date?
        public var content: Checksum
        public var structure: Checksum

        public init(path: String, modified: Date?, content: Checksum, structure: Checksum) {
            self.path = path
            self.modified = modified
            self.content = content
            self.structure = structure
        }
    }

    public var created: Date
    public var hostname: String
    public var tool: String
    public var toolVersion: String
    public var process: Process
    /// Paths under the root the history does not record (gitignore-style patterns): the `ascmhl` folder
    /// itself, and our own manifests and leftovers.
    public var ignored: [String]
    public var files: [File] = []
    /// The root's hashes (in `processinfo`), when it has them.
    public var rootHash: FolderHash?
    public var folders: [FolderHash] = []

    public init(created: Date, hostname: String, tool: String, toolVersion: String, process: Process, ignored: [String]) {
        self.created = created
        self.hostname = hostname
        self.tool = tool
        self.toolVersion = toolVersion
        self.process = process
        self.ignored = ignored
    }

    /// The hash formats ASC MHL names, in the order its schema has them inside a `hash` element.
    public static let formats: [Checksum.Algorithm] = [.c4, .md5, .sha1, .xxh128, .xxh3, .xxh64]

    /// What every history we write ignores: ascmhl's own defaults, then the files an import leaves at a root
    /// beside the copies (manifests, the repair log) and on the way to them (`.part`, copies set aside).
    public static let ignoredByDefault = [
        ".DS_Store", "ascmhl", "ascmhl/", "mediashell-import-*.xxh128", "mediashell-repairs.log", "*.part",
        "*.verify-failed", "*.verify-failed-*",
    ]
}
