import Foundation
import MediaFormats
import TestSupport
import Testing

/// The capture time's forms as each source writes them, its zones (never an offset applied twice), the
/// nonsense dates passed over, and a movie's dates read without its sample tables.
@Suite struct CaptureTimeTests {
    let utc = TimeZone(identifier: "UTC")!
    let kolkata = TimeZone(identifier: "Asia/Kolkata")!
    /// 2024-05-01 10:20:30 as a clock time.
    let wall = 1_714_558_830.0

    @Test func exifWithAndWithoutOffsetAndSubSeconds() throws {
        let plain = try #require(CaptureTime.exif("2024:05:01 10:20:30"))
        #expect(plain.wall == wall && plain.zone == .unknown && plain.source == .exif)
        // Without a zone: the local time where it was shot, read in the zone given (never moved again).
        #expect(plain.instant(assuming: kolkata).timeIntervalSince1970 == wall - 19_800)
        #expect(plain.clock(in: kolkata) == wall)
        let zoned = try #require(CaptureTime.exif("2024:05:01 10:20:30", subSeconds: "123", offset: "+02:00"))
        #expect(zoned.instant(assuming: kolkata).timeIntervalSince1970 == wall + 0.123 - 7200)
        #expect(zoned.clock(in: kolkata) == wall + 0.123)
        #expect(zoned.text == "2024-05-01T10:20:30.123+02:00")
        #expect(CaptureTime(text: zoned.text, source: .exif) == zoned)
        for nonsense in ["0000:00:00 00:00:00", "    :  :     :  :  ", "2024:02:30 10:00:00", "2024-05-01"] {
            #expect(CaptureTime.exif(nonsense) == nil, "\(nonsense)")
        }
    }

    @Test func quickTimeCreationDateKeepsItsZone() throws {
        for (text, offset) in [("2024-05-01T10:20:30+0200", 7200), ("2024-05-01T10:20:30+02:00", 7200), ("2024-05-01T10:20:30-0530", -19_800)] {
            let time = try #require(CaptureTime.quickTime(text))
            #expect(time.zone == .offset(offset) && time.wall == wall, "\(text)")
        }
        #expect(CaptureTime.quickTime("2024-05-01T10:20:30Z")?.zone == .utc)
        #expect(CaptureTime.quickTime("2024-05-01T10:20:30")?.zone == .unknown)
        #expect(CaptureTime.quickTime("yesterday") == nil)
    }

    @Test func aUTCInstantIsShownInTheZoneAsked() {
        let time = CaptureTime(instant: Date(timeIntervalSince1970: wall), source: .movieHeader)
        #expect(time.clock(in: kolkata) == wall + 19_800)
        #expect(time.instant(assuming: kolkata).timeIntervalSince1970 == wall)
        #expect(time.shownOffset(in: kolkata) == 19_800)
    }

    @Test func theSRTsFirstTimestamp() throws {
        let modern = "1\n00:00:00,000 --> 00:00:00,033\n<font size=\"28\">FrameCnt: 1\n2024-05-01 10:20:30.500\n[iso: 100]"
        #expect(CaptureTime.srt(modern) == CaptureTime(wall: wall + 0.5, zone: .unknown, source: .srt))
        let older = "1\n00:00:01,000 --> 00:00:02,000\nHOME(8.1234,46.5678) 2024.05.01 10:20:30\nGPS(8.1,46.5,12)"
        #expect(CaptureTime.srt(older)?.wall == wall)
        #expect(CaptureTime.srt("1\n00:00:00,000 --> 00:00:01,000\nno time here\n") == nil)
    }

    @Test func nonsenseDatesAreNamed() throws {
        let now = Date(timeIntervalSince1970: 1_796_000_000)  // 2026-11
        func time(_ text: String) throws -> CaptureTime { try #require(CaptureTime.exif(text)) }
        #expect(try time("1970:01:01 00:00:00").nonsense(now: now) == "1970")
        #expect(try time("1980:01:01 08:00:00").nonsense(now: now) == "1980-01-01")
        #expect(try time("2000:01:01 00:00:07").nonsense(now: now) == "2000-01-01 00:00")
        #expect(try time("2030:01:01 12:00:00").nonsense(now: now) == "in the future")
        #expect(try time("2000:01:01 10:30:00").nonsense(now: now) == nil)
        #expect(try time("2024:05:01 10:20:30").nonsense(now: now) == nil)
        #expect(CaptureTime(instant: Date(timeIntervalSince1970: -2_082_844_800), source: .movieHeader).nonsense(now: now) == "1904")
    }

    /// A movie whose movie box is larger than one read: only its header, `meta` and `udta` are read, by
    /// their boxes' headers; the creationdate is found through `keys` and `ilst`, in a QuickTime `meta`
    /// (a plain container) and an ISO one (a full box).
    @Test(arguments: [false, true]) func aMovieDatesAreReadWithoutItsSampleTables(isoMeta: Bool) throws {
        typealias B = BoxBytes
        let creation: UInt32 = 3_797_396_430  // 2024-05-01 08:20:30 UTC, in seconds since 1904
        let mvhd = B.fullBox("mvhd", B.u32(creation) + B.u32(creation) + B.u32(1000) + B.u32(4000) + [UInt8](repeating: 0, count: 80))
        let key = Array("com.apple.quicktime.creationdate".utf8)
        let keys = B.fullBox("keys", B.u32(2) + B.u32(UInt32(8 + 4)) + B.fourCC("mdta") + Array("make".utf8)
            + B.u32(UInt32(8 + key.count)) + B.fourCC("mdta") + key)
        let value = Array("2024-05-01T10:20:30+0200".utf8)
        let item = B.box("\u{0}\u{0}\u{0}\u{2}", B.box("data", B.u32(1) + B.u32(0) + value))
        let ilst = B.box("ilst", B.box("\u{0}\u{0}\u{0}\u{1}", B.box("data", B.u32(1) + B.u32(0) + Array("DJI".utf8))) + item)
        let hdlr = B.fullBox("hdlr", B.u32(0) + B.fourCC("mdta") + [UInt8](repeating: 0, count: 13))
        let metaBody = hdlr + keys + ilst
        let meta = isoMeta ? B.fullBox("meta", metaBody) : B.box("meta", metaBody)
        let bigTrack = B.box("trak", [UInt8](repeating: 0x55, count: 400_000))
        let file = B.box("ftyp", B.fourCC("qt  ") + B.u32(0)) + B.box("mdat", [UInt8](repeating: 1, count: 10_000))
            + B.box("moov", mvhd + bigTrack + meta)
        let source = CountingByteSource(MemoryByteSource(file))
        let dates = try MovieDates.read(from: source)
        #expect(dates.quickTimeCreationDate == "2024-05-01T10:20:30+0200")
        #expect(dates.movieHeaderCreation == Date(timeIntervalSince1970: wall - 7200))
        #expect(dates.duration == 4)
        #expect(source.bytesRead < 50_000, "\(source.bytesRead) bytes read of \(file.count)")
    }

    /// A camera that writes its local time in `mvhd`: when the header read as a clock time matches the
    /// camera's date for the file (within the clip and two minutes) and read as UTC does not, it is local.
    @Test func aMovieHeaderInLocalTimeIsTold() throws {
        let header = MovieDates(movieHeaderCreation: Date(timeIntervalSince1970: wall), duration: 60)
        // The camera lists the clip's end, 10:21:30, as written: the header holds local time.
        let listed = CaptureTime(wall: wall + 60, zone: .unknown, source: .camera)
        let local = try #require(header.movieHeaderTime(besides: listed, zone: kolkata))
        #expect(local.zone == .unknown && local.wall == wall)
        // The camera lists a time far from it (or in this computer's zone as UTC + offset): UTC.
        #expect(header.movieHeaderTime(besides: CaptureTime(wall: wall + 86_400, zone: .unknown, source: .camera), zone: kolkata)?.zone == .utc)
        #expect(header.movieHeaderTime(besides: nil)?.zone == .utc)
        // Listed as the UTC header shown in this zone: a camera that wrote UTC, as the specification says.
        let asUTC = CaptureTime(wall: wall + 19_800 + 60, zone: .unknown, source: .camera)
        #expect(header.movieHeaderTime(besides: asUTC, zone: kolkata)?.zone == .utc)
    }
}

/// A photo's dates from one small read of its start (IFD0 and the Exif sub-IFD come before the thumbnail);
/// the whole header read when they do not fit it; the same answer either way.
@Suite struct ExifDatesReadTests {
    let tiff = TIFFBuilder(bigEndian: false)

    func photo(padding: Int) -> [UInt8] {
        let exif = tiff.build(
            ifd0: [tiff.ascii(0x0110, "FC3582")],
            exif: [
                tiff.ascii(0x9003, "2024:05:01 10:20:30"), tiff.ascii(0x9291, "25"), tiff.ascii(0x9011, "+02:00"),
            ], ifd1: [tiff.short(0x0103, 6)], thumbnail: [UInt8](repeating: 0xAB, count: 20_000))
        return SyntheticJPEG.file(exif: exif, before: SyntheticJPEG.segment(0xE2, [UInt8](repeating: 0, count: padding)))
    }

    @Test func theDatesComeFromTheFirstRead() throws {
        let source = CountingByteSource(MemoryByteSource(photo(padding: 10)))
        let exif = try #require(try JPEGReader().exifDates(from: source))
        #expect(source.readCount == 1 && source.bytesRead <= 4096, "\(source.readCount) reads, \(source.bytesRead) bytes")
        #expect(exif.captureTime?.text == "2024-05-01T10:20:30.25+02:00")
    }

    @Test func dateBeyondTheFirstReadAreReadWhole() throws {
        // 5,000 bytes of another segment first: the EXIF starts past the first read.
        let source = CountingByteSource(MemoryByteSource(photo(padding: 5_000)))
        let exif = try #require(try JPEGReader().exifDates(from: source))
        #expect(exif.captureTime?.text == "2024-05-01T10:20:30.25+02:00")
        #expect(exif.model == "FC3582")
        // A photo without EXIF is known as such from the first read.
        let plain = CountingByteSource(MemoryByteSource(SyntheticJPEG.file()))
        #expect(try JPEGReader().exifDates(from: plain) == nil)
        #expect(plain.readCount == 1)
    }
}
