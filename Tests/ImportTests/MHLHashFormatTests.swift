import Checksums
import Testing

/// The hashes an ASC MHL history may hold, as ascmhl (PyPI, the reference implementation) writes them: the
/// values below are what its hashers give for the same bytes.
struct MHLHashFormatTests {
    static let expected: [(Checksum.Algorithm, empty: String, word: String)] = [
        (.c4, "c459dsjfscH38cYeXXYogktxf4Cd9ibshE3BHUo6a58hBXmRQdZrAkZzsWcbWtDg5oQstpDuni4Hirj75GEmTc1sFT",
            "c449iUJiN1EfphocBDiMSXqRMy7ra7B6Mxtet1bpB2rXpFc5ek3XWEwdKVJgWM8Z7wAMzqBamoNp9q4GNdmd9VZY6Z"),
        (.xxh64, "ef46db3751d8e999", "1e65d44a9d2ac195"),
        (.xxh3, "2d06800538d394c2", "c599bea6894953ab"),
        (.md5, "d41d8cd98f00b204e9800998ecf8427e", "0d399c8e8c47811e1bc55e8fb517150c"),
        (.sha1, "da39a3ee5e6b4b0d3255bfef95601890afd80709", "0b23c59e2ab5bd6dfed7ebc3527ab9dbb17a9ad6"),
        (.xxh128, "99aa06d3014798d86001c324468d497f", "ad03b16a3fd01bc1d42801262305ec30"),
    ]

    @Test func eachFormatGivesWhatAscmhlGives() {
        for (algorithm, empty, word) in Self.expected {
            #expect(algorithm.makeHasher().hexDigest() == empty, "\(algorithm)")
            let hash = algorithm.makeHasher()
            // Fed in two pieces, as a file's bytes arrive.
            hash.update(Array("media".utf8))
            hash.update(Array("shell".utf8))
            #expect(hash.hexDigest() == word, "\(algorithm)")
            #expect(word.count == algorithm.hexLength)
        }
    }
}
