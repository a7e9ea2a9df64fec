import CCrypto

/// A digest of libcrypto's (with the CPU's SHA instructions where it has them) of a file's bytes, fed in
/// pieces: SHA-256 (what the import ledger recorded before XXH3-128, what `sha256sum -c` checks), MD5 and
/// SHA-1 (what ASC MHL histories made elsewhere may hold), SHA-512 (under a C4 ID).
public final class CryptoDigest {
    public enum Function: Sendable {
        case md5, sha1, sha256, sha512

        var method: OpaquePointer? {
            switch self {
            case .md5: EVP_md5()
            case .sha1: EVP_sha1()
            case .sha256: EVP_sha256()
            case .sha512: EVP_sha512()
            }
        }
    }

    public let function: Function
    private let context: OpaquePointer

    public init(_ function: Function) {
        self.function = function
        guard let context = EVP_MD_CTX_new(), EVP_DigestInit_ex(context, function.method, nil) == 1 else {
            fatalError("EVP_DigestInit_ex(\(function)) failed")
        }
        self.context = context
    }

    deinit { EVP_MD_CTX_free(context) }

    public func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        EVP_DigestUpdate(context, base, bytes.count)
    }

    public func update(_ bytes: [UInt8]) { bytes.withUnsafeBytes { update($0) } }

    /// The digest of what was fed so far. The hash can be fed more after: the digest is taken from a copy.
    public func digest() -> [UInt8] {
        guard let copy = EVP_MD_CTX_new() else { fatalError("EVP_MD_CTX_new: out of memory") }
        defer { EVP_MD_CTX_free(copy) }
        var digest = [UInt8](repeating: 0, count: 64)
        var length: UInt32 = 0
        guard EVP_MD_CTX_copy_ex(copy, context) == 1, EVP_DigestFinal_ex(copy, &digest, &length) == 1 else {
            fatalError("EVP_DigestFinal_ex(\(function)) failed")
        }
        return Array(digest.prefix(Int(length)))
    }

    /// The digest as lowercase hex digits (no "sha256:" prepended).
    public func hexDigest() -> String { digest().withUnsafeBytes { Hex.string($0) } }

    /// The hex digest of `bytes` at once.
    public static func hexDigest(_ function: Function, of bytes: [UInt8]) -> String {
        let hash = CryptoDigest(function)
        hash.update(bytes)
        return hash.hexDigest()
    }
}
