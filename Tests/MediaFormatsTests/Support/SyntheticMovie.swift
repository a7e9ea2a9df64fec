/// Builds small ISO-BMFF files box by box, so tests can make exactly the structure (or the lie) they need.
enum BoxBytes {
    static func u16(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }
    static func u32(_ value: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }
    static func i32(_ value: Int32) -> [UInt8] { u32(UInt32(bitPattern: value)) }
    static func u64(_ value: UInt64) -> [UInt8] { u32(UInt32(value >> 32)) + u32(UInt32(truncatingIfNeeded: value)) }
    static func fourCC(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// A box with a 32-bit size.
    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        u32(UInt32(8 + payload.count)) + fourCC(type) + payload
    }

    /// A box whose size field says `size`, whatever the payload's real length.
    static func box(_ type: String, claimedSize size: UInt32, _ payload: [UInt8]) -> [UInt8] {
        u32(size) + fourCC(type) + payload
    }

    /// A box with a 64-bit `largesize`.
    static func largeBox(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        u32(1) + fourCC(type) + u64(UInt64(16 + payload.count)) + payload
    }

    static func fullBox(_ type: String, version: UInt8 = 0, flags: UInt32 = 0, _ payload: [UInt8]) -> [UInt8] {
        box(type, [version] + Array(u32(flags).dropFirst()) + payload)
    }

    /// A `tkhd`/`mvhd`-style 3x3 matrix for a clockwise rotation of 0, 90, 180 or 270 degrees.
    static func matrix(rotation: Int) -> [UInt8] {
        let one: Int32 = 0x10000
        let (a, b, c, d): (Int32, Int32, Int32, Int32) =
            switch rotation {
            case 90: (0, one, -one, 0)
            case 180: (-one, 0, 0, -one)
            case 270: (0, -one, one, 0)
            default: (one, 0, 0, one)
            }
        return [a, b, 0, c, d, 0, 0, 0, 0x4000_0000].flatMap(i32)
    }
}

/// A minimal, valid movie with one H.264-like video track: 10 samples of 100 bytes in 2 chunks of 5, 25 fps
/// at timescale 1000, keyframes at samples 1 and 6. Every box is a property, so a test swaps in a broken one.
struct SyntheticMovie {
    typealias B = BoxBytes
    let sampleCount = 10
    let sampleSize: UInt32 = 100
    var moovAtEnd = false

    var ftyp: [UInt8]
    var mvhd: [UInt8]
    var tkhd: [UInt8]
    var edts: [UInt8]?
    var mdhd: [UInt8]
    var hdlr: [UInt8]
    var stsd: [UInt8]
    var stts: [UInt8]
    var ctts: [UInt8]?
    var stsc: [UInt8]
    var stsz: [UInt8]
    /// nil: an `stco` computed from where mdat lands.
    var stco: [UInt8]?
    var stss: [UInt8]?
    /// Extra boxes appended inside moov.
    var extraMovieChildren: [UInt8] = []

    /// `version1Headers` writes mvhd, tkhd and mdhd with 64-bit times; `rotation` sets the track matrix.
    init(version1Headers: Bool = false, rotation: Int = 0) {
        let count = UInt32(sampleCount)
        ftyp = B.box("ftyp", B.fourCC("isom") + B.u32(512) + B.fourCC("isom") + B.fourCC("avc1"))
        mvhd = version1Headers
            ? B.fullBox("mvhd", version: 1, B.u64(1) + B.u64(2) + B.u32(600) + B.u64(240) + Self.movieHeaderTail)
            : B.fullBox("mvhd", B.u32(1) + B.u32(2) + B.u32(600) + B.u32(240) + Self.movieHeaderTail)
        let trackTail = Self.trackHeaderTail(rotation: rotation)
        tkhd = version1Headers
            ? B.fullBox("tkhd", version: 1, flags: 3, B.u64(1) + B.u64(2) + B.u32(1) + B.u32(0) + B.u64(240) + trackTail)
            : B.fullBox("tkhd", flags: 3, B.u32(1) + B.u32(2) + B.u32(1) + B.u32(0) + B.u32(240) + trackTail)
        mdhd = version1Headers
            ? B.fullBox("mdhd", version: 1, B.u64(1) + B.u64(2) + B.u32(1000) + B.u64(400) + B.u32(0))
            : B.fullBox("mdhd", B.u32(1) + B.u32(2) + B.u32(1000) + B.u32(400) + B.u32(0))
        hdlr = B.fullBox("hdlr", B.u32(0) + B.fourCC("vide") + [UInt8](repeating: 0, count: 12) + [0])
        stsd = B.fullBox("stsd", B.u32(1) + Self.visualSampleEntry)
        stts = B.fullBox("stts", B.u32(1) + B.u32(count) + B.u32(40))
        stsc = B.fullBox("stsc", B.u32(1) + B.u32(1) + B.u32(count / 2) + B.u32(1))
        let size = sampleSize
        stsz = B.fullBox("stsz", B.u32(0) + B.u32(count) + (0..<count).flatMap { _ in B.u32(size) })
        stss = B.fullBox("stss", B.u32(2) + B.u32(1) + B.u32(count / 2 + 1))
    }

    static var movieHeaderTail: [UInt8] {
        B.u32(0x10000) + B.u16(0x100) + [UInt8](repeating: 0, count: 10) + B.matrix(rotation: 0)
            + [UInt8](repeating: 0, count: 24) + B.u32(2)
    }
    static func trackHeaderTail(rotation: Int) -> [UInt8] {
        [UInt8](repeating: 0, count: 8) + B.u16(0) + B.u16(0) + B.u16(0) + B.u16(0) + B.matrix(rotation: rotation)
            + B.u32(640 << 16) + B.u32(360 << 16)
    }
    static var visualSampleEntry: [UInt8] {
        B.box(
            "avc1",
            [UInt8](repeating: 0, count: 6) + B.u16(1) + [UInt8](repeating: 0, count: 16) + B.u16(640) + B.u16(360)
                + B.u32(0x48_0000) + B.u32(0x48_0000) + B.u32(0) + B.u16(1) + [UInt8](repeating: 0, count: 32)
                + B.u16(0x18) + B.u16(0xFFFF))
    }

    /// The movie box, with chunk offsets pointing into an mdat starting at `mediaDataOffset`.
    func moov(mediaDataOffset: UInt64) -> [UInt8] {
        let chunkSize = UInt64(sampleCount / 2) * UInt64(sampleSize)
        let offsets = stco ?? B.fullBox(
            "stco", B.u32(2) + B.u32(UInt32(mediaDataOffset)) + B.u32(UInt32(mediaDataOffset + chunkSize)))
        let stbl = B.box("stbl", stsd + stts + (ctts ?? []) + stsc + stsz + offsets + (stss ?? []))
        let minf = B.box("minf", B.fullBox("vmhd", flags: 1, [UInt8](repeating: 0, count: 8)) + stbl)
        let mdia = B.box("mdia", mdhd + hdlr + minf)
        let trak = B.box("trak", tkhd + (edts ?? []) + mdia)
        return B.box("moov", mvhd + trak + extraMovieChildren)
    }

    /// The whole file: ftyp, then moov and mdat in the chosen order.
    func bytes() -> [UInt8] {
        let mediaData = [UInt8](repeating: 0xAB, count: sampleCount * Int(sampleSize))
        let header = ftyp
        if moovAtEnd {
            let mdat = B.box("mdat", mediaData)
            return header + mdat + moov(mediaDataOffset: UInt64(header.count + 8))
        }
        // The moov size does not depend on the offsets it holds, so measure it first.
        let moovSize = moov(mediaDataOffset: 0).count
        let movie = moov(mediaDataOffset: UInt64(header.count + moovSize + 8))
        return header + movie + B.box("mdat", mediaData)
    }
}
