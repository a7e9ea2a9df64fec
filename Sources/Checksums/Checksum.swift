/// A file's checksum as recorded (in the import ledger, in a manifest): which algorithm, and its digest in
/// lowercase hex.
public struct Checksum: Hashable, Sendable, CustomStringConvertible {
    public enum Algorithm: String, Sendable, CaseIterable {
        /// XXH3-128 (libxxhash): what an import computes as the bytes arrive, 32 hex digits.
        case xxh128
        /// SHA-256 (libcrypto): what ledgers written before XXH3-128 hold, 64 hex digits.
        case sha256

        /// A new hash of this algorithm, to feed.
        public func makeHasher() -> any ChecksumHasher {
            switch self {
            case .xxh128: XXH128()
            case .sha256: SHA256()
            }
        }

        /// How many hex digits its digest has.
        public var hexLength: Int { self == .xxh128 ? 32 : 64 }
    }

    public var algorithm: Algorithm
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
    /// The digest of what was fed so far, as lowercase hex; more can be fed after.
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

extension SHA256: ChecksumHasher {
    public var algorithm: Checksum.Algorithm { .sha256 }
}
