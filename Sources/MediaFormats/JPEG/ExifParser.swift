import Foundation

/// Parses the TIFF structure inside an EXIF APP1 segment: IFD0 (make, model, orientation, date), the Exif
/// sub-IFD (date taken) and IFD1 (the thumbnail). Offsets inside it are relative to the TIFF header, and
/// every one is checked against the block's bytes.
struct ExifParser {
    /// The TIFF block, from its "II"/"MM" header to the end of the APP1 segment.
    let tiff: [UInt8]
    /// Where `tiff[0]` sits in the file.
    let fileOffset: UInt64
    /// Only the dates: IFD1 (the thumbnail) and the camera's make and model are left out, so that a block
    /// cut short after its first IFDs (the start of a file read for its date) still parses.
    var datesOnly = false

    private enum Tag {
        static let make: UInt16 = 0x010F
        static let model: UInt16 = 0x0110
        static let orientation: UInt16 = 0x0112
        static let dateTime: UInt16 = 0x0132
        static let exifIFD: UInt16 = 0x8769
        static let dateTimeOriginal: UInt16 = 0x9003
        static let offsetTimeOriginal: UInt16 = 0x9011
        static let subSecTimeOriginal: UInt16 = 0x9291
        static let thumbnailOffset: UInt16 = 0x0201
        static let thumbnailLength: UInt16 = 0x0202
    }

    init(tiff: [UInt8], fileOffset: UInt64) {
        self.tiff = tiff
        self.fileOffset = fileOffset
    }

    func parse() throws -> ExifInfo {
        let block = try TIFFBlock(tiff, fileOffset: fileOffset)
        let ifd0Offset = block.ifd0Offset
        let (ifd0, ifd1Offset) = try block.readIFD(at: ifd0Offset, name: "IFD0")
        func string(_ entry: TIFFBlock.Entry) throws -> String? { try block.string(entry) }
        func uint(_ entry: TIFFBlock.Entry) throws -> UInt32 { try block.uint(entry) }
        func malformed(_ defect: MediaFormatError.ExifDefect) -> MediaFormatError { block.malformed(defect) }

        var dateTimeOriginal: String?
        var subSecTimeOriginal: String?
        var offsetTimeOriginal: String?
        if let pointer = ifd0[Tag.exifIFD] {
            let exifOffset = try uint(pointer)
            guard exifOffset != ifd0Offset else { throw malformed(.pointsBackAtIFD0(ifd: "Exif sub-IFD")) }
            let (exif, _) = try block.readIFD(at: exifOffset, name: "the Exif sub-IFD")
            dateTimeOriginal = try exif[Tag.dateTimeOriginal].flatMap(string)
            // Beside the date, and never a reason to lose it: a malformed one is left out.
            // (In a block cut short, one beyond it is an error: the caller reads the whole block then.)
            if datesOnly {
                subSecTimeOriginal = try exif[Tag.subSecTimeOriginal].flatMap(string)
                offsetTimeOriginal = try exif[Tag.offsetTimeOriginal].flatMap(string)
            } else {
                subSecTimeOriginal = (try? exif[Tag.subSecTimeOriginal].flatMap(string)) ?? nil
                offsetTimeOriginal = (try? exif[Tag.offsetTimeOriginal].flatMap(string)) ?? nil
            }
        }

        var thumbnail: [UInt8]?
        var thumbnailRange: Range<UInt64>?
        if ifd1Offset != 0, !datesOnly {
            guard ifd1Offset != ifd0Offset else { throw malformed(.pointsBackAtIFD0(ifd: "IFD1")) }
            let (ifd1, _) = try block.readIFD(at: ifd1Offset, name: "IFD1")
            if let start = ifd1[Tag.thumbnailOffset], let length = ifd1[Tag.thumbnailLength] {
                let (offset, count) = (UInt64(try uint(start)), UInt64(try uint(length)))
                guard count > 0, offset + count <= UInt64(tiff.count) else {
                    throw malformed(.thumbnailOutside(count: count, at: offset))
                }
                thumbnail = Array(tiff[Int(offset)..<Int(offset + count)])
                thumbnailRange = (fileOffset + offset)..<(fileOffset + offset + count)
            }
        }

        var orientation: Int?
        if let entry = ifd0[Tag.orientation], let value = try? uint(entry), (1...8).contains(value) {
            orientation = Int(value)
        }
        var info = ExifInfo(
            byteOrder: block.bigEndian ? .bigEndian : .littleEndian,
            make: datesOnly ? nil : try ifd0[Tag.make].flatMap(string),
            model: datesOnly ? nil : try ifd0[Tag.model].flatMap(string),
            orientation: orientation,
            dateTime: try ifd0[Tag.dateTime].flatMap(string),
            dateTimeOriginal: dateTimeOriginal,
            subSecTimeOriginal: subSecTimeOriginal,
            offsetTimeOriginal: offsetTimeOriginal,
            thumbnail: thumbnail,
            thumbnailRange: thumbnailRange)
        if !datesOnly { info.tags = ExifTagWalk(block).tags() }
        return info
    }
}
