import Imaging
import Testing

@testable import Shell
import Words

/// Why a picture could not be decoded, in the words a user reads (`thumb`): the golden sentences of
/// `ImagingError`. Below the shell, tests compare the error's cases and their facts.
@Suite struct ImagingWordsTests {
    func words(_ bytes: [UInt8]) -> String? {
        do {
            _ = try JPEGDecoder.decode(bytes, fitting: PixelSize(width: 160, height: 120), limits: .forTarget(PixelSize(width: 160, height: 120)))
            return nil
        } catch {
            return ErrorWords.sentence(for: error)
        }
    }

    @Test func notAJPEGSaysWhatCameInstead() {
        #expect(ErrorWords.sentence(for: ImagingError.emptyInput) == "not a JPEG: the data is empty")
        #expect(words([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
            == "not a JPEG: no start-of-image marker (8 bytes starting 89 50 4E 47)")
        #expect(words([0xFF, 0xD8, 0xFF, 0xD9]) == "not a JPEG: end-of-image marker before any image data")
    }

    @Test func sizesOverTheBoundsSayTheBound() {
        #expect(ErrorWords.sentence(for: ImagingError.invalidDimensions(width: 640, height: 0))
            == "JPEG declares an impossible size 640x0")
        #expect(ErrorWords.sentence(for: ImagingError.tooManyPixels(width: 65_000, height: 65_000, limit: DecodeLimits.defaultMaxSourcePixels))
            == "JPEG is 65000x65000 (4225.0 MP), over the 268.4 MP limit")
        let required = 15 * 1_048_576 / 10  // 1.5 MiB
        #expect(ErrorWords.sentence(for: ImagingError.exceedsMemoryLimit(
            width: 10_000, height: 10_000, scale: ScalingFactor(1, 8), requiredBytes: required, limitBytes: 1 << 20))
            == "JPEG 10000x10000 needs 1.5 MiB to decode at 1/8 scale, over the 1.0 MiB limit")
    }

    @Test func libjpegSaysWhatItCouldNotDo() {
        #expect(ErrorWords.sentence(for: ImagingError.libjpeg(operation: "decode JPEG", message: "Premature end of JPEG file"))
            == "cannot decode JPEG: Premature end of JPEG file")
    }
}
