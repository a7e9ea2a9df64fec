import MediaFormats
import TestSupport
import Testing

/// Hostile movie files: every one must end in a `MediaFormatError` (or, where the damage misses the movie
/// box, a correct result), never a crash, a hang or a huge allocation.
@Suite("MovieReader on hostile input")
struct MovieReaderHostileTests {
    typealias B = BoxBytes

    func read(_ bytes: [UInt8], limits: MovieReadLimits = MovieReadLimits()) throws -> MovieInfo {
        try MovieReader(limits: limits).read(from: MemoryByteSource(bytes))
    }

    // MARK: Truncation

    /// Cut every fixture at ~300 points (every byte of the first 64 and of the movie box's edges, and evenly
    /// elsewhere): before the movie box ends it is an error; after it, the same result as the whole file.
    @Test(arguments: Fixtures.videos)
    func truncatedAtManyPoints(name: String) throws {
        let bytes = try Fixtures.bytes(name)
        let whole = try read(bytes)
        let moovEnd = Int(whole.movieBoxOffset + whole.movieBoxSize)
        let moovStart = Int(whole.movieBoxOffset)
        var cuts = Set(0..<64)
        cuts.formUnion(stride(from: 0, to: bytes.count, by: max(1, bytes.count / 200)))
        cuts.formUnion(max(0, moovStart - 16)..<min(bytes.count, moovStart + 32))
        cuts.formUnion(max(0, moovEnd - 32)..<moovEnd)
        for cut in cuts.sorted() where cut < bytes.count {
            let prefix = Array(bytes[0..<cut])
            if cut >= moovEnd {
                let info = try read(prefix)
                #expect(info.videoTrack?.sampleTable.samples == whole.videoTrack?.sampleTable.samples)
            } else {
                let error = expectFormatError { try read(prefix) }
                #expect(error?.kind == .truncated || error?.kind == .unsupported, "cut at \(cut): \(String(reflecting: error))")
            }
        }
    }

    // MARK: Sizes that lie

    @Test func topLevelBoxSmallerThanItsHeader() {
        for size: UInt32 in [2, 4, 7] {
            let error = expectFormatError(.malformed) { try read(B.box("ftyp", claimedSize: size, [0, 0, 0, 0, 0, 0, 0, 0])) }
            #expect(error?.problem == .smallerThanHeader(box: "ftyp", size: UInt64(size)))
        }
    }

    @Test func largeSizeThatIsTooSmallOrTooBig() {
        for largeSize: UInt64 in [0, 8, 15] {
            let file = B.u32(1) + B.fourCC("ftyp") + B.u64(largeSize) + [UInt8](repeating: 0, count: 16)
            expectFormatError(.malformed) { try read(file) }
        }
        let huge = B.u32(1) + B.fourCC("free") + B.u64(UInt64.max) + [UInt8](repeating: 0, count: 16)
        expectFormatError(.truncated) { try read(huge) }
    }

    @Test func sizeOneWithoutRoomForTheLargeSize() {
        expectFormatError(.truncated) { try read(B.u32(1) + B.fourCC("moov") + [0, 0]) }
    }

    @Test func boxClaimingMoreThanTheFile() {
        let movie = SyntheticMovie()
        let moov = movie.moov(mediaDataOffset: 0)
        var lying = moov
        lying.replaceSubrange(0..<4, with: B.u32(UInt32(moov.count + 1000)))
        let error = expectFormatError(.truncated) { try read(movie.ftyp + lying) }
        guard case .boxPastEndBeforeMovie(box: "moov", _, _)? = error?.problem else {
            Issue.record("\(String(reflecting: error))")
            return
        }
    }

    @Test func childBoxClaimingMoreThanItsParent() throws {
        var movie = SyntheticMovie()
        movie.stts = B.box("stts", claimedSize: 5000, [0, 0, 0, 0] + B.u32(1) + B.u32(10) + B.u32(40))
        let error = expectFormatError(.malformed) { try read(movie.bytes()) }
        guard case .childTooLarge(box: "stts", size: 5000, _, _)? = error?.problem else {
            Issue.record("\(String(reflecting: error))")
            return
        }
    }

    @Test func sizeZeroInsideTheMovieBox() {
        var movie = SyntheticMovie()
        movie.extraMovieChildren = B.u32(0) + B.fourCC("udta") + [1, 2, 3, 4]
        let error = expectFormatError(.malformed) { try read(movie.bytes()) }
        #expect(error?.problem == .zeroSizeInside(box: "udta", parent: "moov"))
    }

    @Test func childSmallerThanItsHeader() {
        var movie = SyntheticMovie()
        movie.extraMovieChildren = B.u32(3) + B.fourCC("free")
        expectFormatError(.malformed) { try read(movie.bytes()) }
    }

    @Test func strayBytesAtTheEndOfAContainer() {
        var movie = SyntheticMovie()
        movie.extraMovieChildren = [1, 2, 3]
        expectFormatError(.malformed) { try read(movie.bytes()) }
        movie.extraMovieChildren = [0, 0, 0, 0]  // QuickTime's zero terminator is fine.
        #expect(throws: Never.self) { try read(movie.bytes()) }
    }

    // MARK: Counts that lie

    @Test func entryCountOfFourBillionInATinyBox() {
        let tables: [(WritableKeyPath<SyntheticMovie, [UInt8]>, String)] = [
            (\.stts, "stts"), (\.stsc, "stsc"), (\.stsd, "stsd"),
        ]
        for (path, type) in tables {
            var movie = SyntheticMovie()
            movie[keyPath: path] = B.fullBox(type, B.u32(0xFFFF_FFFF) + B.u32(1) + B.u32(1))
            let error = expectFormatError(.malformed) { try read(movie.bytes()) }
            guard case .countExceedsRoom(_, count: 0xFFFF_FFFF, _, _)? = error?.problem else {
                Issue.record("\(type): \(String(reflecting: error))")
                continue
            }
        }
        for type in ["stco", "co64", "stss", "ctts", "elst"] {
            var movie = SyntheticMovie()
            let box = B.fullBox(type, B.u32(0xFFFF_FFFF) + B.u32(1))
            switch type {
            case "stco", "co64": movie.stco = box
            case "stss": movie.stss = box
            case "ctts": movie.ctts = box
            default: movie.edts = B.box("edts", box)
            }
            expectFormatError(.malformed) { try read(movie.bytes()) }
        }
    }

    @Test func sampleCountBeyondTheLimit() {
        var movie = SyntheticMovie()
        movie.stsz = B.fullBox("stsz", B.u32(0) + B.u32(0xFFFF_FFFF))
        expectFormatError(.limitExceeded) { try read(movie.bytes()) }
        movie.stsz = B.fullBox("stsz", B.u32(1) + B.u32(3_000_000))
        expectFormatError(.limitExceeded) { try read(movie.bytes()) }
        movie.stsz = B.fullBox("stz2", [0, 0, 0, 8] + B.u32(0xFFFF_FFFF))
        expectFormatError(.limitExceeded) { try read(movie.bytes()) }
    }

    @Test func constantSizeSamplesThatCannotFitInTheFile() {
        var movie = SyntheticMovie()
        movie.stsz = B.fullBox("stsz", B.u32(0xFFFF_FFFF) + B.u32(10))
        let error = expectFormatError(.malformed) { try read(movie.bytes()) }
        guard case .sampleTable(_, .samplesLargerThanFile(count: 10, size: 0xFFFF_FFFF, _))? = error?.problem else {
            Issue.record("\(String(reflecting: error))")
            return
        }
    }

    @Test func sampleTablesThatDisagree() {
        var movie = SyntheticMovie()
        movie.stts = B.fullBox("stts", B.u32(1) + B.u32(9) + B.u32(40))
        expectFormatError(.malformed) { try read(movie.bytes()) }

        movie = SyntheticMovie()
        movie.ctts = B.fullBox("ctts", B.u32(1) + B.u32(3) + B.u32(40))
        expectFormatError(.malformed) { try read(movie.bytes()) }

        movie = SyntheticMovie()
        movie.stsc = B.fullBox("stsc", B.u32(1) + B.u32(2) + B.u32(5) + B.u32(1))  // not from chunk 1
        expectFormatError(.malformed) { try read(movie.bytes()) }

        movie = SyntheticMovie()
        movie.stsc = B.fullBox("stsc", B.u32(1) + B.u32(1) + B.u32(1) + B.u32(1))  // 2 chunks x 1 < 10 samples
        expectFormatError(.malformed) { try read(movie.bytes()) }

        movie = SyntheticMovie()
        movie.stsc = B.fullBox("stsc", B.u32(2) + B.u32(1) + B.u32(5) + B.u32(1) + B.u32(1) + B.u32(5) + B.u32(1))
        expectFormatError(.malformed) { try read(movie.bytes()) }  // goes backwards

        movie = SyntheticMovie()
        // A huge first run covers every sample, and a second run names a chunk that does not exist.
        movie.stsc = B.fullBox(
            "stsc", B.u32(2) + B.u32(1) + B.u32(0xFFFF_FFFF) + B.u32(1) + B.u32(0xFFFF_0000) + B.u32(1) + B.u32(1))
        expectTotal("stsc runs past the chunks") { try read(movie.bytes()) }

        movie = SyntheticMovie()
        movie.stsc = B.fullBox("stsc", B.u32(1) + B.u32(1) + B.u32(0xFFFF_FFFF) + B.u32(1))
        movie.stco = B.fullBox("stco", B.u32(0))
        expectFormatError(.malformed) { try read(movie.bytes()) }  // no chunks at all

        for number: UInt32 in [0, 11, 0xFFFF_FFFF] {
            movie = SyntheticMovie()
            movie.stss = B.fullBox("stss", B.u32(1) + B.u32(number))
            expectFormatError(.malformed) { try read(movie.bytes()) }
        }

        movie = SyntheticMovie()
        movie.stco = B.fullBox("co64", B.u32(2) + B.u64(UInt64.max - 50) + B.u64(0))
        expectFormatError(.malformed) { try read(movie.bytes()) }  // offset + size overflows
    }

    @Test func zeroTimescalesAndUnknownVersions() {
        var movie = SyntheticMovie()
        movie.mvhd = B.fullBox("mvhd", B.u32(0) + B.u32(0) + B.u32(0) + B.u32(100) + [UInt8](repeating: 0, count: 80))
        expectFormatError(.malformed) { try read(movie.bytes()) }
        movie = SyntheticMovie()
        movie.mdhd = B.fullBox("mdhd", B.u32(0) + B.u32(0) + B.u32(0) + B.u32(100) + B.u32(0))
        expectFormatError(.malformed) { try read(movie.bytes()) }
        movie = SyntheticMovie()
        movie.tkhd = B.fullBox("tkhd", version: 7, [UInt8](repeating: 0, count: 80))
        expectFormatError(.malformed) { try read(movie.bytes()) }
        movie = SyntheticMovie()
        movie.stsd = B.fullBox("stsd", B.u32(1) + B.u32(4000) + B.fourCC("avc1"))
        expectFormatError(.malformed) { try read(movie.bytes()) }
        movie = SyntheticMovie()
        movie.edts = B.box("edts", B.fullBox("elst", B.u32(1) + B.u32(10) + B.i32(-7) + B.u32(0x10000)))
        expectFormatError(.malformed) { try read(movie.bytes()) }
    }

    @Test func missingBoxesAreNamed() {
        var movie = SyntheticMovie()
        movie.mvhd = B.box("free", [])
        #expect(missing(expectFormatError(.malformed) { try read(movie.bytes()) }) == ["mvhd"])
        movie = SyntheticMovie()
        movie.stts = B.box("free", [])
        #expect(missing(expectFormatError(.malformed) { try read(movie.bytes()) }) == ["stts"])
        movie = SyntheticMovie()
        movie.stsz = B.box("free", [])
        #expect(missing(expectFormatError(.malformed) { try read(movie.bytes()) }) == ["stsz", "stz2"])
    }

    /// The boxes a `.missingBox` error says are missing.
    private func missing(_ error: MediaFormatError?) -> [String]? {
        guard case .missingBox(let types, _)? = error?.problem else { return nil }
        return types
    }

    // MARK: Loops, nesting and box counts

    @Test func noMovieBoxAtAll() {
        let file = B.box("ftyp", B.fourCC("isom") + B.u32(0)) + B.box("mdat", [1, 2, 3])
        let error = expectFormatError(.unsupported) { try read(file) }
        #expect(error?.problem == .noMovieBox(fileLength: UInt64(file.count)))
        expectFormatError(.unsupported) { try read([]) }
    }

    @Test func tooManyTopLevelBoxes() {
        let file = (0..<5000).flatMap { _ in B.box("free", []) }
        expectFormatError(.limitExceeded) { try read(file) }
    }

    @Test func tooManyBoxesInsideTheMovieBox() {
        var movie = SyntheticMovie()
        movie.extraMovieChildren = (0..<200).flatMap { _ in B.box("free", []) }
        var limits = MovieReadLimits()
        limits.maxBoxes = 100
        expectFormatError(.limitExceeded) { try read(movie.bytes(), limits: limits) }
    }

    @Test func nestingDeeperThanTheLimit() throws {
        let movie = SyntheticMovie()
        var limits = MovieReadLimits()
        limits.maxDepth = 3  // moov > trak > mdia > minf > stbl needs 5
        expectFormatError(.limitExceeded) { try read(movie.bytes(), limits: limits) }
        #expect(throws: Never.self) { try read(movie.bytes()) }
    }

    /// Ten thousand boxes each inside the last, inside the movie box: the reader neither recurses into them
    /// nor crashes.
    @Test func tenThousandNestedBoxes() {
        var nested: [UInt8] = B.fullBox("tkhd", [UInt8](repeating: 0, count: 80))
        for _ in 0..<10_000 { nested = B.box("trak", nested) }
        var movie = SyntheticMovie()
        movie.extraMovieChildren = nested
        expectFormatError(.malformed) { try read(movie.bytes()) }
    }

    @Test func tooManyTracks() {
        var movie = SyntheticMovie()
        var limits = MovieReadLimits()
        limits.maxTracks = 2
        movie.extraMovieChildren = (0..<3).flatMap { _ in B.box("trak", []) }
        expectFormatError(.limitExceeded) { try read(movie.bytes(), limits: limits) }
    }

    @Test func movieBoxLargerThanTheLimit() {
        let movie = SyntheticMovie()
        var limits = MovieReadLimits()
        limits.maxMovieBoxSize = 100
        expectFormatError(.limitExceeded) { try read(movie.bytes(), limits: limits) }
    }

    // MARK: Garbage

    @Test func randomGarbage() {
        var random = SeededRandom(test: "movie garbage")
        for round in 0..<300 {
            let count = Int.random(in: 0..<2048, using: &random)
            var bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
            if round.isMultiple(of: 2), bytes.count >= 8 {
                // Make the start look like a box so the walk goes further.
                bytes.replaceSubrange(4..<8, with: B.fourCC(["ftyp", "moov", "mdat", "free"][round / 2 % 4]))
            }
            expectTotal("garbage round \(round), \(random)") { try read(bytes) }
        }
    }

    /// Overwrite each 4-byte word of the movie box with values that make sizes and counts lie.
    @Test(arguments: ["portrait_moovend.mp4", "landscape_proxy_160x90.lrf"])
    func everyWordOfTheMovieBoxCorrupted(name: String) throws {
        let bytes = try Fixtures.bytes(name)
        let whole = try read(bytes)
        let start = Int(whole.movieBoxOffset)
        let end = start + Int(whole.movieBoxSize)
        let values: [UInt32] = [0, 1, 7, 8, 0x7FFF_FFFF, 0xFFFF_FFFF, 0x0001_0000]
        for position in stride(from: start, to: end - 3, by: 4) {
            for value in values {
                var damaged = bytes
                damaged.replaceSubrange(position..<position + 4, with: B.u32(value))
                expectTotal("\(name) word at \(position) = \(value)") { try read(damaged) }
            }
        }
    }

    @Test(arguments: Fixtures.videos)
    func randomByteFlipsInTheMovieBox(name: String) throws {
        let bytes = try Fixtures.bytes(name)
        let whole = try read(bytes)
        let range = Int(whole.movieBoxOffset)..<Int(whole.movieBoxOffset + whole.movieBoxSize)
        var random = SeededRandom(test: "movie box flips \(name)")
        for round in 0..<400 {
            var damaged = bytes
            for _ in 0..<Int.random(in: 1...8, using: &random) {
                damaged[Int.random(in: range, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
            expectTotal("\(name) round \(round), \(random)") { try read(damaged) }
        }
    }
}
