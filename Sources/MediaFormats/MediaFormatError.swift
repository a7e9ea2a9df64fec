import Failures

/// Why a media file could not be read, as facts: every malformed, truncated or oversized input ends here, never
/// in a crash. `problem` says what was wrong (which structure, the numbers found against the ones allowed),
/// `offset` where in the file when known; the sentence is rendered from them.
public struct MediaFormatError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The broad reason, for callers that react differently to each (for example, retry I/O but not corruption).
    public enum Kind: Sendable, Equatable {
        /// The data ends before a structure it announces.
        case truncated
        /// A field contradicts the format or the data around it (a lying size, a bad marker, a loop).
        case malformed
        /// A count or size exceeds a sane bound, so reading it would cost too much memory or time.
        case limitExceeded
        /// Well-formed, but not something this reader handles (for example, no movie box at all).
        case unsupported
        /// Reading the bytes themselves failed (file system or device error).
        case io
    }

    /// What was wrong.
    public let problem: Problem
    /// Where in the file the problem was found, when known.
    public let offset: UInt64?

    public init(_ problem: Problem, offset: UInt64? = nil) {
        self.problem = problem
        self.offset = offset
    }

    /// The broad reason.
    public var kind: Kind { problem.kind }

    /// The sentence, with the byte offset when known: `the file ends inside the 'moov' box (at byte 1234)`.
    public var description: String {
        if let offset { return "\(problem) (at byte \(offset))" }
        return "\(problem)"
    }

    static func truncated(_ structure: String, offset: UInt64? = nil) -> MediaFormatError {
        MediaFormatError(.endsInside(structure), offset: offset)
    }
}

extension MediaFormatError {
    /// A count that a reader bounds, to keep memory and time in check.
    public enum Counted: Equatable, Sendable {
        case tracks
        case samples
        /// Top-level boxes after the movie box (where fragments are).
        case boxesAfterMovie
        /// Boxes inside the movie box.
        case boxesInMovie
        /// Entries of the box named (`elst`, `tfra`).
        case entries(box: String)
    }

    /// What the EXIF block (a TIFF structure) got wrong.
    public enum ExifDefect: Equatable, Sendable {
        case noByteOrderMark
        /// The TIFF header lacks the number 42.
        case noMagicNumber
        /// An IFD (`Exif sub-IFD`, `IFD1`) points back at IFD0.
        case pointsBackAtIFD0(ifd: String)
        /// The thumbnail of `count` bytes at `at` is beyond the block.
        case thumbnailOutside(count: UInt64, at: UInt64)
        /// The IFD named is placed at `at`, outside the block.
        case ifdOutside(ifd: String, at: UInt32)
        case unknownTagType(tag: UInt16, type: UInt16)
        /// The value of `tag`, `size` bytes, is beyond the block.
        case tagOutside(tag: UInt16, size: UInt64)
        case tagWithoutValue(tag: UInt16)
        case tagNotANumber(tag: UInt16, type: UInt16)
    }

    /// What a track's sample table (`track` is its name, `track 1`) got wrong.
    public enum SampleTableDefect: Equatable, Sendable {
        /// A sync sample numbered `number` in a table of `count`.
        case syncSampleOutOfRange(number: UInt32, count: Int)
        /// Sample `sample` (1-based) at an offset that cannot be (`position`).
        case impossibleSampleOffset(sample: Int, position: UInt64)
        /// `count` samples of `size` bytes, more than the file's `fileLength` bytes.
        case samplesLargerThanFile(count: Int, size: UInt64, fileLength: UInt64)
        /// Durations for `timed` samples where there are `count`.
        case durationCount(timed: UInt64, count: Int)
        /// Composition offsets for `covered` samples where there are `count`.
        case compositionOffsetCount(covered: UInt64, count: Int)
        /// The sample-to-chunk table (stsc) does not start at chunk 1.
        case chunkTableNotFromFirst
        /// The sample-to-chunk table names `chunk` where there are `count`.
        case chunkOutOfRange(chunk: UInt32, count: Int)
        /// `placed` samples placed in chunks where there are `count`.
        case chunkedCount(placed: UInt64, count: Int)
    }

    /// What was wrong, with its numbers.
    public enum Problem: Equatable, Sendable, CustomStringConvertible {
        // Any format
        /// The file ends inside `structure` (`the 'moov' box`, `a box header`).
        case endsInside(String)
        /// `structure` claims `count` `unit` (entries, samples) but has room for `room`.
        case countExceedsRoom(structure: String, count: UInt64, unit: String, room: Int)
        /// A read of a negative byte count (of `structure`, when named): a bug in a caller, kept from trapping.
        case negativeRead(structure: String?)
        /// More `what` (`count`, when known) than the `limit` this reader accepts.
        case tooMany(Counted, count: UInt64?, limit: Int)
        /// The box named is `size` bytes, more than the `limit` this reader accepts.
        case boxTooLarge(box: String, size: UInt64, limit: UInt64)
        /// The file at `path` is not a regular file.
        case notRegularFile(path: String)
        /// A system call on the file failed.
        case system(SystemError)

        // JPEG
        case notJPEG
        /// No frame header within the first `segments` segments.
        case noFrameHeaderWithin(segments: Int)
        case expectedMarker
        case fillRunTooLong
        case secondStartOfImage
        /// No frame header (SOF) before the image data.
        case noFrameHeader
        case segmentLength(Int)
        case zeroWidth
        case exif(ExifDefect)

        // ISO BMFF (MP4, MOV)
        /// The box type at the offset is not text (`type` as read): not an MP4/MOV file.
        case boxTypeNotText(String)
        /// No movie box in the file (of `fileLength` bytes, when the whole was searched).
        case noMovieBox(fileLength: UInt64?)
        /// More than `boxes` top-level boxes and no movie box.
        case noMovieBoxWithin(boxes: Int)
        /// The box named (`size` bytes) runs past the end of the file (`fileLength`, when known) before a movie box.
        case boxPastEndBeforeMovie(box: String, size: UInt64?, fileLength: UInt64?)
        /// The box named runs past the end of `parent`.
        case boxPastParent(box: String, parent: String)
        /// The box named claims `size` bytes where `parent` has `room` left.
        case childTooLarge(box: String, size: UInt64, parent: String, room: UInt64)
        /// The box named has a size (`size`) smaller than its own header.
        case smallerThanHeader(box: String, size: UInt64)
        /// The box named, inside `parent`, has size 0, which only a top-level box may have.
        case zeroSizeInside(box: String, parent: String)
        /// `count` stray bytes end the box named.
        case strayBytes(box: String, count: Int)
        /// Boxes nest more than `limit` levels deep in the box named.
        case nestedTooDeep(box: String, limit: Int)
        /// `container` (`the movie box`, `track 1's sample table`) has no box of these `types`.
        case missingBox(types: [String], in: String)
        case unknownVersion(box: String, version: UInt8)
        case zeroTimescale(box: String)
        /// `field` of the box named holds `value`, which the format does not allow.
        case invalidField(box: String, field: String, value: Int64)
        /// The sample-to-chunk table (stsc) goes back at `chunk`.
        case chunkTableGoesBack(atChunk: UInt32)
        /// A track run (trun) places its data before the file starts.
        case trackRunBeforeFile
        /// A track run (trun) places a sample at an offset that cannot be.
        case trackRunImpossibleOffset
        case sampleTable(track: String, SampleTableDefect)
        /// An edit of `track` at a rate (16.16 fixed point) other than 1.
        case editRate(track: String, rate: Int32)
        /// Track `track` is fragmented and only its first fragment was read.
        case fragmentedTrack(UInt32)
        /// The timeline was asked for before it was built.
        case timelineNotBuilt
        /// A NAL unit length size (in bytes) that no codec uses.
        case nalLengthSize(Int)
        /// A decoder configuration without parameter sets.
        case noParameterSets
        /// A NAL unit of `length` bytes in a sample with `remaining` left.
        case nalUnitPastSample(length: Int, remaining: Int)
        case emptyKeyframe

        /// The broad reason.
        public var kind: Kind {
            switch self {
            case .endsInside, .boxPastEndBeforeMovie: .truncated
            case .tooMany, .boxTooLarge, .noFrameHeaderWithin, .fillRunTooLong, .nestedTooDeep, .noMovieBoxWithin:
                .limitExceeded
            case .noMovieBox, .editRate, .fragmentedTrack, .timelineNotBuilt: .unsupported
            case .notRegularFile, .system: .io
            default: .malformed
            }
        }

        public var description: String {
            switch self {
            case .endsInside(let structure): "the file ends inside \(structure)"
            case .countExceedsRoom(let structure, let count, let unit, let room):
                "\(structure) claims \(count) \(unit) but has room for \(room)"
            case .negativeRead(let structure?): "negative read of \(structure)"
            case .negativeRead(nil): "a read of a negative byte count"
            case .tooMany(let counted, let count, let limit): Self.words(counted, count: count, limit: limit)
            case .boxTooLarge(let box, let size, let limit):
                box == "moov"
                    ? "the movie box is \(size) bytes, more than the \(limit) this reader accepts"
                    : "a '\(box)' box is \(size) bytes, more than \(limit)"
            case .notRegularFile(let path): "\(path) is not a regular file"
            case .system(let error): "\(error)"
            case .notJPEG: "not a JPEG file: it does not start with the start-of-image marker"
            case .noFrameHeaderWithin(let segments): "no JPEG frame header in the first \(segments) segments"
            case .expectedMarker: "expected a JPEG marker"
            case .fillRunTooLong: "a run of JPEG fill bytes longer than the header limit"
            case .secondStartOfImage: "a second start-of-image marker in the JPEG header"
            case .noFrameHeader: "the JPEG has no frame header (SOF) before its image data"
            case .segmentLength(let length): "a JPEG segment with length \(length)"
            case .zeroWidth: "the JPEG frame header gives a width of 0"
            case .exif(let defect): "the EXIF block " + Self.words(defect)
            case .boxTypeNotText(let type): "not an MP4/MOV file: the box type is not text ('\(type)')"
            case .noMovieBox(let length?):
                "no movie box (moov) in \(length) bytes: not an MP4/MOV file, or a recording that was never finished"
            case .noMovieBox(nil): "no movie box (moov): not an MP4/MOV file"
            case .noMovieBoxWithin(let boxes): "more than \(boxes) top-level boxes and no movie box (moov)"
            case .boxPastEndBeforeMovie(let box, let size?, let length?):
                "the file ends inside the '\(box)' box (\(size) bytes, file is \(length) bytes) before a movie box (moov) was found"
            case .boxPastEndBeforeMovie(let box, _, _):
                "the file ends inside the '\(box)' box before a movie box (moov) was found"
            case .boxPastParent(let box, let parent): "box '\(box)' runs past the end of the '\(parent)' box"
            case .childTooLarge(let box, let size, let parent, let room):
                "box '\(box)' claims \(size) bytes but '\(parent)' has only \(room) left"
            case .smallerThanHeader(let box, let size): "box '\(box)' has size \(size), smaller than its own header"
            case .zeroSizeInside(let box, let parent):
                "box '\(box)' inside '\(parent)' has size 0, which only a top-level box may have"
            case .strayBytes(let box, let count): "'\(box)' ends with \(count) stray bytes"
            case .nestedTooDeep(let box, let limit): "boxes nest more than \(limit) levels deep in '\(box)'"
            case .missingBox(let types, let container):
                "\(container) has no " + types.map { "'\($0)'" }.joined(separator: " or ") + " box"
            case .unknownVersion(let box, let version): "\(Self.header(box)) has unknown version \(version)"
            case .zeroTimescale(let box): "\(Self.header(box)) has a timescale of 0"
            case .invalidField(let box, let field, let value): "\(Self.header(box)) has an impossible \(field) \(value)"
            case .chunkTableGoesBack(let chunk): "the sample-to-chunk table (stsc) does not go forward at chunk \(chunk)"
            case .trackRunBeforeFile: "a track run places its data before the file starts"
            case .trackRunImpossibleOffset: "a track run places a sample at an impossible offset"
            case .sampleTable(let track, let defect): "the sample table of \(track) " + Self.words(defect)
            case .editRate(let track, let rate):
                "\(track) has an edit \(EditListEntry.rateWords(rate)): only rate 1 (normal speed) is supported"
            case .fragmentedTrack(let id): "track \(id) is fragmented and only its first fragment was read"
            case .timelineNotBuilt: "the timeline is not built yet"
            case .nalLengthSize(let size): "a NAL unit length size of \(size) bytes, which no codec uses"
            case .noParameterSets: "a decoder configuration without parameter sets"
            case .nalUnitPastSample(let length, let remaining):
                "a NAL unit of \(length) bytes in a sample with \(remaining) bytes left"
            case .emptyKeyframe: "an empty keyframe sample"
            }
        }

        /// `the movie header (mvhd)`, `a track header (tkhd)`, `a media header (mdhd)`.
        private static func header(_ box: String) -> String {
            switch box {
            case "mvhd": "the movie header (mvhd)"
            case "tkhd": "a track header (tkhd)"
            case "mdhd": "a media header (mdhd)"
            case "elst": "an edit list (elst)"
            case "tfdt": "a track fragment's decode time (tfdt)"
            case "stz2": "a compact sample size box (stz2)"
            case "esds": "an audio descriptor (esds)"
            default: "the '\(box)' box"
            }
        }

        private static func words(_ counted: Counted, count: UInt64?, limit: Int) -> String {
            switch (counted, count) {
            case (.tracks, let count?): "the movie has \(count) tracks, more than \(limit)"
            case (.samples, let count?): "a track claims \(count) samples, more than the \(limit) this reader accepts"
            case (.samples, nil): "a track has more than \(limit) samples in its fragments"
            case (.boxesAfterMovie, _): "more than \(limit) top-level boxes after the movie box"
            case (.boxesInMovie, _): "the movie box holds more than \(limit) boxes"
            case (.entries(let box), let count?): "\(header(box)) has \(count) entries, more than \(limit)"
            case (let counted, _): "more \(counted) than \(limit)"
            }
        }

        private static func words(_ defect: ExifDefect) -> String {
            func hex(_ tag: UInt16) -> String { "0x" + String(tag, radix: 16) }
            return switch defect {
            case .noByteOrderMark: "does not start with a TIFF byte-order mark (II or MM)"
            case .noMagicNumber: "has a TIFF header without the number 42"
            case .pointsBackAtIFD0(let ifd): "has an \(ifd) that points back at IFD0"
            case .thumbnailOutside(let count, let at): "places its \(count)-byte thumbnail at \(at), beyond the EXIF block"
            case .ifdOutside(let ifd, let at): "points \(ifd) at \(at), outside the EXIF block"
            case .unknownTagType(let tag, let type): "has tag \(hex(tag)) of unknown type \(type)"
            case .tagOutside(let tag, let size): "places tag \(hex(tag)) (\(size) bytes) beyond the EXIF block"
            case .tagWithoutValue(let tag): "has tag \(hex(tag)) with no value"
            case .tagNotANumber(let tag, let type): "has tag \(hex(tag)) of type \(type), not a number"
            }
        }

        private static func words(_ defect: SampleTableDefect) -> String {
            switch defect {
            case .syncSampleOutOfRange(let number, let count): "names sync sample \(number) of \(count)"
            case .impossibleSampleOffset(let sample, let position): "places sample \(sample) at an impossible offset \(position)"
            case .samplesLargerThanFile(let count, let size, let length):
                "claims \(count) samples of \(size) bytes, more than the file's \(length) bytes"
            case .durationCount(let timed, let count): "gives durations for \(timed) samples but has \(count)"
            case .compositionOffsetCount(let covered, let count): "gives composition offsets for \(covered) samples but has \(count)"
            case .chunkTableNotFromFirst: "has a sample-to-chunk table (stsc) that does not start at chunk 1"
            case .chunkOutOfRange(let chunk, let count): "names chunk \(chunk) but has \(count) chunks"
            case .chunkedCount(let placed, let count): "places \(placed) samples in chunks but has \(count)"
            }
        }
    }
}
