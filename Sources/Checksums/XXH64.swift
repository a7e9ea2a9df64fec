import CXXHash

/// The 64-bit hashes of libxxhash, XXH64 and XXH3-64, seed 0, fed in pieces: what ASC MHL histories call
/// `xxh64` and `xxh3`, printed big-endian as `xxhsum -H1` and `-H3` do.
public final class XXH64 {
    public enum Variant: Sendable {
        case xxh64, xxh3
    }

    public let variant: Variant
    private let state: OpaquePointer

    public init(_ variant: Variant) {
        self.variant = variant
        switch variant {
        case .xxh64:
            guard let state = XXH64_createState() else { fatalError("XXH64_createState: out of memory") }
            self.state = state
            XXH64_reset(state, 0)
        case .xxh3:
            guard let state = XXH3_createState() else { fatalError("XXH3_createState: out of memory") }
            self.state = state
            XXH3_64bits_reset(state)
        }
    }

    deinit {
        switch variant {
        case .xxh64: XXH64_freeState(state)
        case .xxh3: XXH3_freeState(state)
        }
    }

    public func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        switch variant {
        case .xxh64: XXH64_update(state, base, bytes.count)
        case .xxh3: XXH3_64bits_update(state, base, bytes.count)
        }
    }

    /// The digest as 16 lowercase hex digits, big-endian. The hash can be fed more after.
    public func hexDigest() -> String {
        var canonical = XXH64_canonical_t()
        XXH64_canonicalFromHash(&canonical, variant == .xxh64 ? XXH64_digest(state) : XXH3_64bits_digest(state))
        return withUnsafeBytes(of: canonical.digest) { Hex.string($0) }
    }
}
