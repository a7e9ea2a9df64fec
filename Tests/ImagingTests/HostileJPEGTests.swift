import Foundation
import Imaging
import TestSupport
import Testing

/// Broken and hostile inputs: each gives a one-line error (or, for damaged image data, a picture with a
/// warning), never a crash, and never a buffer beyond the caller's bound.
@Suite struct HostileJPEGTests {
    static let thumbTarget = PixelSize(width: 160, height: 120)
    static let thumbLimits = DecodeLimits.forTarget(thumbTarget)

    /// Decodes and checks the invariants every outcome must keep; returns the error, if any.
    @discardableResult
    static func attempt(_ bytes: [UInt8], limits: DecodeLimits = thumbLimits, strict: Bool = false) -> ImagingError? {
        do {
            let decoded = try JPEGDecoder.decode(bytes, fitting: thumbTarget, limits: limits, strict: strict)
            #expect(decoded.plan.requiredBytes <= limits.maxBytes)
            #expect(decoded.image.pixels.count == decoded.plan.outputBytes)
            if let warning = decoded.warning { #expect(!warning.isEmpty && !warning.contains("\n")) }
            return nil
        } catch {
            // Its words (one line each) are ShellTests' to read (ImagingWordsTests).
            return error
        }
    }

    @Test func emptyInput() {
        #expect(Self.attempt([]) == .emptyInput)
    }

    @Test func notAJPEG() {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard case .notJPEG? = Self.attempt(png) else {
            Issue.record("a PNG was not refused as not a JPEG")
            return
        }
        #expect(Self.attempt([0xFF]) != nil)
        #expect(Self.attempt([0xFF, 0xD8]) != nil)
        guard case .notJPEG? = Self.attempt([0xFF, 0xD8, 0xFF, 0xD9]) else {
            Issue.record("an end-of-image marker before any data was not refused")
            return
        }
    }

    @Test func randomGarbage() {
        var rng = SeededRandom(test: "JPEG decoder garbage")
        for length in [1, 2, 3, 10, 100, 1000, 10_000] {
            for _ in 0..<20 {
                let garbage = (0..<length).map { _ in UInt8.random(in: 0...255, using: &rng) }
                #expect(Self.attempt(garbage) != nil, "\(rng)")
                // Garbage behind a valid start-of-image marker: an error, never a crash.
                #expect(Self.attempt([0xFF, 0xD8] + garbage) != nil, "\(rng)")
            }
        }
    }

    @Test func garbageImageDataAfterAValidHeaderIsRecoveredWithAWarning() throws {
        var rng = SeededRandom(test: "JPEG decoder garbage scan")
        let start = Fixtures.scanDataOffset(Fixtures.noisy)
        var bytes = Array(Fixtures.noisy[..<start])
        bytes += (0..<2000).map { _ in UInt8.random(in: 0...255, using: &rng) }
        let decoded = try JPEGDecoder.decode(bytes, limits: generous)
        #expect(decoded.image.size == PixelSize(width: 96, height: 64))
        #expect(decoded.warning != nil, "\(rng)")
        #expect(throws: ImagingError.self) { try JPEGDecoder.decode(bytes, limits: generous, strict: true) }
    }

    @Test func truncatedAtEveryPoint() throws {
        let jpeg = Fixtures.noisy
        let dataStart = Fixtures.scanDataOffset(jpeg)
        for cut in 0..<jpeg.count {
            let error = Self.attempt(Array(jpeg[..<cut]))
            if cut < dataStart {
                // Cut in the headers: nothing to show, a clear error.
                #expect(error != nil, "cut at \(cut)")
            } else {
                // Cut in the image data: libjpeg greys out what is missing and warns.
                #expect(error == nil, "cut at \(cut): \(String(describing: error))")
            }
        }
        let cut = Array(jpeg[..<(jpeg.count / 2)])
        let partial = try JPEGDecoder.decode(cut, limits: generous)
        #expect(partial.warning == "Premature end of JPEG file")
        #expect(throws: ImagingError.libjpeg(operation: "decode JPEG", message: "Premature end of JPEG file")) {
            try JPEGDecoder.decode(cut, limits: generous, strict: true)
        }
    }

    @Test func headerErrorsCarryLibjpegText() {
        // A frame header claiming a width libjpeg will not decode (its limit is 65500).
        let wide = Fixtures.withFrameSize(Fixtures.noisy, width: 65_535, height: 8)
        #expect(
            Self.attempt(wide, limits: DecodeLimits(maxBytes: 1 << 30))
                == .libjpeg(operation: "read JPEG header", message: "Maximum supported image dimension is 65500 pixels"))
    }

    @Test(arguments: [(0, 480), (640, 0), (0, 0)])
    func zeroDimensionsAreRefused(width: Int, height: Int) {
        let bytes = Fixtures.withFrameSize(Fixtures.noisy, width: width, height: height)
        #expect(Self.attempt(bytes) == .invalidDimensions(width: width, height: height))
    }

    @Test func tooManyPixelsIsRefusedBeforeAnyAllocation() {
        let bytes = Fixtures.withFrameSize(Fixtures.noisy, width: 65_000, height: 65_000)
        let error = Self.attempt(bytes, limits: DecodeLimits(maxBytes: .max))
        #expect(error == .tooManyPixels(width: 65_000, height: 65_000, limit: DecodeLimits.defaultMaxSourcePixels))
        let lower = DecodeLimits(maxBytes: .max, maxDimension: 10_000)
        #expect(Self.attempt(Fixtures.withFrameSize(Fixtures.noisy, width: 10_001, height: 8), limits: lower)
            == .invalidDimensions(width: 10_001, height: 8))
    }
}

/// The memory bound: the plan is made from the header alone, and a decode allocates what it planned.
@Suite struct DecodeMemoryBoundTests {
    static func header(width: Int, height: Int, progressive: Bool = false) throws -> JPEGStructure {
        let base = progressive ? Fixtures.progressive : Fixtures.noisy
        return try JPEGDecoder.readHeader(Fixtures.withFrameSize(base, width: width, height: height))
    }

    @Test func boundFromTheTarget() {
        #expect(DecodeLimits.forTarget(PixelSize(width: 160, height: 120)).maxBytes == 16 << 20)
        #expect(DecodeLimits.forTarget(PixelSize(width: 2000, height: 1000)).maxBytes == 2_000_000 * 48)
    }

    @Test func anEightThousandPixelPhotoIsNeverDecodedAtFullSize() throws {
        let header = try Self.header(width: 8000, height: 6000)
        let target = PixelSize(width: 160, height: 120)
        let plan = try JPEGDecoder.plan(for: header, fitting: target, limits: .forTarget(target))
        #expect(plan.scale == ScalingFactor(1, 8))
        #expect(plan.output == PixelSize(width: 1000, height: 750))
        #expect(plan.outputBytes == 1000 * 750 * 3)
        #expect(plan.coefficientBytes == 0)
        #expect(plan.requiredBytes < 16 << 20)

        // A bigger target needs a bigger scale ...
        let big = PixelSize(width: 1600, height: 1200)
        #expect(try JPEGDecoder.plan(for: header, fitting: big, limits: .forTarget(big)).scale == ScalingFactor(1, 4))
        // ... unless the bound does not allow it: then the largest scale within the bound.
        let tight = DecodeLimits(maxBytes: 4 << 20)
        #expect(try JPEGDecoder.plan(for: header, fitting: big, limits: tight).scale == ScalingFactor(1, 8))
        // Full size only when asked for and allowed.
        #expect(try JPEGDecoder.plan(for: header, fitting: nil, limits: DecodeLimits(maxBytes: 200 << 20)).scale == .one)
        #expect(throws: ImagingError.self) {
            try JPEGDecoder.plan(for: header, fitting: nil, limits: DecodeLimits(maxBytes: 1 << 20))
        }
    }

    @Test func aHugeHeaderWithATinyTargetDecodesAtOneEighth() throws {
        // 10000x10000 declared, a 96x64 picture's worth of data: decoded at 1/8 (1250x1250), the rest grey.
        let bytes = Fixtures.withFrameSize(Fixtures.noisy, width: 10_000, height: 10_000)
        let target = PixelSize(width: 80, height: 48)
        let decoded = try JPEGDecoder.decode(bytes, fitting: target, limits: .forTarget(target))
        #expect(decoded.plan.scale == ScalingFactor(1, 8))
        #expect(decoded.image.size == PixelSize(width: 1250, height: 1250))
        #expect(decoded.image.pixels.count == 1250 * 1250 * 3)
        #expect(decoded.plan.requiredBytes <= DecodeLimits.forTarget(target).maxBytes)
        #expect(decoded.warning != nil)
    }

    @Test func refusedWhenEvenOneEighthIsOverTheBound() throws {
        let bytes = Fixtures.withFrameSize(Fixtures.noisy, width: 10_000, height: 10_000)
        let limits = DecodeLimits(maxBytes: 1 << 20)
        let header = try JPEGDecoder.readHeader(bytes)
        let plan = try JPEGDecoder.plan(for: header, fitting: nil, limits: DecodeLimits(maxBytes: .max))
        #expect(plan.scale == .one)
        do {
            _ = try JPEGDecoder.decode(bytes, fitting: PixelSize(width: 80, height: 48), limits: limits)
            Issue.record("decoded over the bound")
        } catch {
            guard case .exceedsMemoryLimit(10_000, 10_000, ScalingFactor(1, 8), let required, 1 << 20) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(required > 1250 * 1250 * 3)
        }
    }

    @Test func progressiveCoefficientsCountAtEveryScale() throws {
        // libjpeg buffers a progressive file's coefficients at full size whatever the output scale.
        let header = try Self.header(width: 10_000, height: 10_000, progressive: true)
        // 4:2:0: Y 1250x1250 blocks, Cb and Cr 625x625 each, 128 bytes a block.
        #expect(header.coefficientBufferBytes == (1250 * 1250 + 2 * 625 * 625) * 128)
        let target = PixelSize(width: 160, height: 120)
        #expect(throws: ImagingError.self) {
            try JPEGDecoder.plan(for: header, fitting: target, limits: .forTarget(target))
        }
        let bytes = Fixtures.withFrameSize(Fixtures.progressive, width: 10_000, height: 10_000)
        #expect(HostileJPEGTests.attempt(bytes) != nil)
        // Small progressive files are fine.
        let small = try Self.header(width: 640, height: 480, progressive: true)
        #expect(try JPEGDecoder.plan(for: small, fitting: target, limits: .forTarget(target)).scale == ScalingFactor(1, 4))
    }
}
