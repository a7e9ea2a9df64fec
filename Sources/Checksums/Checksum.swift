/// A file's checksum as recorded (in the import ledger, in a manifest, in an ASC MHL history): which
/// algorithm, and its digest as text.
public struct Checksum: Hashable, Sendable, CustomStringConvertible {
    public enum Algorithm: String, Sendable, CaseIterable {
        /// XXH3-128 (libxxhash): what an import computes as the bytes arrive, 32 hex digits.
        case xxh128
        /// SHA-256 (libcrypto): what ledgers written before XXH3-128 hold, 64 hex digits.
        case sha256
        /// The other hashes an ASC MHL history may hold (histories made by other tools): XXH64 and XXH3-64
        /// (16 hex digits), MD5 (32), SHA-1 (40), and C4 (a 90-character ID, not hex).
        case xxh64, xxh3, md5, sha1, c4

        /// A new hash of this algorithm, to feed.
        public func makeHasher() -> any ChecksumHasher {
            switch self {
            case .xxh128: XXH128()
            case .sha256: TaggedHasher(self, CryptoDigest(.sha256))
            case .md5: TaggedHasher(self, CryptoDigest(.md5))
            case .sha1: TaggedHasher(self, CryptoDigest(.sha1))
            case .xxh64: TaggedHasher(self, XXH64(.xxh64))
            case .xxh3: TaggedHasher(self, XXH64(.xxh3))
            case .c4: TaggedHasher(self, C4ID())
            }
        }

        /// How many characters its digest has (hex digits, or C4's 90).
        public var hexLength: Int {
            switch self {
            case .xxh64, .xxh3: 16
            case .xxh128, .md5: 32
            case .sha1: 40
            case .sha256: 64
            case .c4: 90
            }
        }
    }

    public var algorithm: Algorithm
    /// The digest: lowercase hex digits, or a C4 ID.
    public var hex: String

    public init(_ algorithm: Algorithm, hex: String) {
        self.algorithm = algorithm
        self.hex = hex
    }

    /// `xxh128:6e1f…`
    public var description: String { "\(algorithm.rawValue):\(hex)" }
}

/// A hash fed a file's bytes in order, in pieces, as they arrive.
public protocol ChecksumHasher: AnyObject {
    func update(_ bytes: UnsafeRawBufferPointer)
    /// The digest of what was fed so far, as lowercase hex (a C4 ID for C4); more can be fed after.
    func hexDigest() -> String
    var algorithm: Checksum.Algorithm { get }
}

extension ChecksumHasher {
    public func update(_ bytes: [UInt8]) { bytes.withUnsafeBytes { update($0) } }

    /// The checksum of what was fed so far.
    public func checksum() -> Checksum { Checksum(algorithm, hex: hexDigest()) }
}

extension XXH128: ChecksumHasher {
    public var algorithm: Checksum.Algorithm { .xxh128 }
}

/// What a hash that knows nothing of `Checksum` gives, named by its algorithm.
private final class TaggedHasher: ChecksumHasher {
    let algorithm: Checksum.Algorithm
    private let feed: (UnsafeRawBufferPointer) -> Void
    private let digest: () -> String

    init(_ algorithm: Checksum.Algorithm, _ hash: CryptoDigest) {
        self.algorithm = algorithm
        feed = hash.update
        digest = hash.hexDigest
    }

    init(_ algorithm: Checksum.Algorithm, _ hash: XXH64) {
        self.algorithm = algorithm
        feed = hash.update
        digest = hash.hexDigest
    }

    init(_ algorithm: Checksum.Algorithm, _ hash: C4ID) {
        self.algorithm = algorithm
        feed = hash.update
        digest = hash.string
    }

    func update(_ bytes: UnsafeRawBufferPointer) { feed(bytes) }
    func hexDigest() -> String { digest() }
}
