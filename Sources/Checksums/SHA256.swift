import CCrypto

/// SHA-256 (libcrypto's, with the CPU's SHA instructions where it has them) of a file's bytes, fed in
/// pieces: what the import ledger recorded before XXH3-128, and what `sha256sum -c` checks.
public final class SHA256 {
    private let context: OpaquePointer

    public init() {
        guard let context = EVP_MD_CTX_new(), EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else {
            fatalError("EVP_DigestInit_ex(sha256) failed")
        }
        self.context = context
    }

    deinit { EVP_MD_CTX_free(context) }

    public func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        EVP_DigestUpdate(context, base, bytes.count)
    }

    /// The digest as 64 lowercase hex digits ("sha256:" is not prepended). The hash can be fed more after:
    /// the digest is taken from a copy.
    public func hexDigest() -> String {
        guard let copy = EVP_MD_CTX_new() else { fatalError("EVP_MD_CTX_new: out of memory") }
        defer { EVP_MD_CTX_free(copy) }
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        guard EVP_MD_CTX_copy_ex(copy, context) == 1, EVP_DigestFinal_ex(copy, &digest, &length) == 1 else {
            fatalError("EVP_DigestFinal_ex(sha256) failed")
        }
        return digest.withUnsafeBytes { Hex.string($0) }
    }

    public static func hexDigest(of bytes: [UInt8]) -> String {
        let hash = SHA256()
        hash.update(bytes)
        return hash.hexDigest()
    }
}
