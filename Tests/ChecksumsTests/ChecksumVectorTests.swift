import Testing

@testable import Checksums

/// Every hash a checksum may be recorded in gives what implementations nobody here wrote give: the digests
/// below are Python's `xxhash` and `hashlib` and ascmhl 1.2's C4 (`ascmhl.hasher.C4`), for no bytes, `abc`,
/// and 10,240 bytes of 0...255 repeated; fed whole or in pieces of any size, a hash gives the same digest.
@Suite struct ChecksumVectorTests {
    static let counting: [UInt8] = Array((0..<40).flatMap { _ in (0...255).map(UInt8.init) })
    static let inputs: [(name: String, bytes: [UInt8])] = [("none", []), ("abc", Array("abc".utf8)), ("0...255 x 40", counting)]

    static let expected: [Checksum.Algorithm: [String]] = [
        .xxh128: ["99aa06d3014798d86001c324468d497f", "06b05ab6733a618578af5f94892f3950", "1cb22534d0d96975c03d2231ab9348f3"],
        .xxh64: ["ef46db3751d8e999", "44bc2cf5ad770999", "58b820aa7970dbe2"],
        .xxh3: ["2d06800538d394c2", "78af5f94892f3950", "c03d2231ab9348f3"],
        .md5: ["d41d8cd98f00b204e9800998ecf8427e", "900150983cd24fb0d6963f7d28e17f72", "c3cd26e07e555c0116db237fbc06d99c"],
        .sha1: [
            "da39a3ee5e6b4b0d3255bfef95601890afd80709", "a9993e364706816aba3e25717850c26c9cd0d89d",
            "36812e99f2d591c5114a7b09519ea9d7daba2380",
        ],
        .sha256: [
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
            "e96760a87768717bcebcfd25ddc7d46b4dbc95a4b0014def080c08539f7d90d0",
        ],
        .c4: [
            "c459dsjfscH38cYeXXYogktxf4Cd9ibshE3BHUo6a58hBXmRQdZrAkZzsWcbWtDg5oQstpDuni4Hirj75GEmTc1sFT",
            "c45S4rnaTNWonxss1u8LzsaJdEph1AJhWUF4sh2waXKMsutyfAxg4ybUeuXVWS9HdNcEypmeXn8FZGonD4w1rj9DZp",
            "c44TsmEuDStLdmCViiz4Z9MFbuFNh85dU7MppikWWGZjCF1SJoJF8iXiRgDpsT4fBdDr9fDEayVyZ1rmbS18YkJopZ",
        ],
    ]

    @Test(arguments: Checksum.Algorithm.allCases)
    func digestsAreTheReferenceImplementations(algorithm: Checksum.Algorithm) throws {
        let digests = try #require(Self.expected[algorithm], "no vectors for \(algorithm)")
        for (input, digest) in zip(Self.inputs, digests) {
            let hash = algorithm.makeHasher()
            hash.update(input.bytes)
            #expect(hash.checksum() == Checksum(algorithm, hex: digest), "\(algorithm) of \(input.name)")
            #expect(digest.count == algorithm.hexLength)
        }
    }

    @Test(arguments: Checksum.Algorithm.allCases)
    func piecesOfAnySizeGiveTheWholesDigest(algorithm: Checksum.Algorithm) {
        let whole = algorithm.makeHasher()
        whole.update(Self.counting)
        for size in [1, 3, 64, 1_000, 4_097] {
            let pieces = algorithm.makeHasher()
            var at = 0
            while at < Self.counting.count {
                pieces.update(Array(Self.counting[at..<min(at + size, Self.counting.count)]))
                at += size
            }
            #expect(pieces.hexDigest() == whole.hexDigest(), "\(algorithm) in pieces of \(size)")
        }
        // Asked midway, a hash goes on as if it had not been asked.
        let asked = algorithm.makeHasher()
        asked.update(Array(Self.counting.prefix(5_000)))
        _ = asked.hexDigest()
        asked.update(Array(Self.counting.dropFirst(5_000)))
        #expect(asked.hexDigest() == whole.hexDigest(), "\(algorithm) asked midway")
    }

    @Test func aChecksumReadsAsItsAlgorithmAndDigest() {
        #expect(Checksum(.xxh128, hex: "99aa06d3014798d86001c324468d497f").description == "xxh128:99aa06d3014798d86001c324468d497f")
        #expect(Checksum(.md5, hex: "d41d8cd98f00b204e9800998ecf8427e") != Checksum(.xxh128, hex: "d41d8cd98f00b204e9800998ecf8427e"))
    }
}
