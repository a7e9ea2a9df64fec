/// A C4 ID (SMPTE ST 2114): the SHA-512 of the bytes as a base58 number of 88 digits after "c4", 90
/// characters in all. ASC MHL names each generation in its chain by one, and accepts it as a file hash.
public final class C4ID {
    private let sha512 = CryptoDigest(.sha512)

    public init() {}

    public func update(_ bytes: UnsafeRawBufferPointer) { sha512.update(bytes) }

    /// The ID of what was fed so far; more can be fed after.
    public func string() -> String { Self.encode(sha512.digest()) }

    /// The ID of `bytes` at once.
    public static func of(_ bytes: [UInt8]) -> String {
        let id = C4ID()
        bytes.withUnsafeBytes { id.update($0) }
        return id.string()
    }

    /// C4's alphabet: base58 without 0, O, I and l, its digit zero written "1".
    static let alphabet = Array("123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz".utf8)
    static let digits = 88

    /// A 64-byte digest as "c4" and 88 base58 digits, most significant first, padded with "1".
    static func encode(_ digest: [UInt8]) -> String {
        // The digest as a big number in 32-bit limbs, most significant first, divided by 58 again and again.
        var limbs: [UInt32] = stride(from: 0, to: digest.count, by: 4).map { start in
            digest[start..<min(start + 4, digest.count)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        }
        var out = [UInt8](repeating: alphabet[0], count: digits)
        var position = digits - 1
        while limbs.contains(where: { $0 != 0 }) && position >= 0 {
            var remainder: UInt64 = 0
            for index in limbs.indices {
                let value = remainder << 32 | UInt64(limbs[index])
                limbs[index] = UInt32(value / 58)
                remainder = value % 58
            }
            out[position] = alphabet[Int(remainder)]
            position -= 1
        }
        return "c4" + String(decoding: out, as: UTF8.self)
    }
}
