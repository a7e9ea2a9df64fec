import CXXHash

/// XXH3-128 (libxxhash) of a file's bytes, fed in pieces as they arrive: the checksum an import records,
/// writes into its manifests (`xxhsum -c` checks them) and reads copies back against. Fast enough never to
/// be what an import waits for (tens of GB/s on one core); not a defence against someone who forges a
/// file, which is SHA-256's job.
public final class XXH128 {
    private let state: OpaquePointer

    public init() {
        guard let state = XXH3_createState() else { fatalError("XXH3_createState: out of memory") }
        self.state = state
        XXH3_128bits_reset(state)
    }

    deinit { XXH3_freeState(state) }

    public func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        XXH3_128bits_update(state, base, bytes.count)
    }

    /// The digest as 32 lowercase hex digits, as `xxhsum -H2` prints it (its canonical, big-endian form).
    /// The hash can be fed more after.
    public func hexDigest() -> String {
        var canonical = XXH128_canonical_t()
        XXH128_canonicalFromHash(&canonical, XXH3_128bits_digest(state))
        return withUnsafeBytes(of: canonical.digest) { Hex.string($0) }
    }

    /// The digest of `bytes` at once.
    public static func hexDigest(of bytes: [UInt8]) -> String {
        let hash = XXH128()
        hash.update(bytes)
        return hash.hexDigest()
    }
}
