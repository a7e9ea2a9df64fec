import MediaFormats
import Testing

/// The first keyframe of each demo clip as a raw H.264 stream: parameter sets from `avcC`, then the sample's
/// NAL units behind start codes; and the hostile cases as errors.
@Suite struct AnnexBTests {
    @Test(arguments: Fixtures.videos)
    func theFirstKeyframeBecomesARawStream(name: String) throws {
        let video = try #require(try MovieReader().read(from: Fixtures.source(name)).videoTrack)
        let codec = try #require(video.codec.flatMap(AnnexB.Codec.init(format:)))
        #expect(codec == .h264)
        let configuration = try AnnexB.Configuration(try #require(video.codecConfiguration), codec: codec)
        #expect(configuration.lengthSize == 4)
        #expect(configuration.parameterSets.map { $0.first.map { $0 & 0x1F } } == [7, 8], "one SPS, one PPS")

        let index = try #require(video.sampleTable.keyframeIndices.first)
        let sample = video.sampleTable.samples[index]
        let bytes = try Fixtures.source(name).readFully(offset: sample.offset, count: Int(sample.size))
        let stream = try AnnexB.stream(configuration, sample: bytes)
        let units = Self.split(stream)
        #expect(units.first.map { $0[0] & 0x1F } == 7 && units.dropFirst().first.map { $0[0] & 0x1F } == 8)
        #expect(units.contains { $0[0] & 0x1F == 5 }, "an IDR slice")
        let sampleNALBytes = units.dropFirst(2).reduce(0) { $0 + $1.count + 4 }
        #expect(sampleNALBytes == bytes.count, "every length field became a start code of the same size")
    }

    @Test func hostileConfigurationsAndSamplesAreErrors() throws {
        #expect(throws: MediaFormatError.self) { try AnnexB.Configuration([1, 100, 0], codec: .h264) }
        #expect(throws: MediaFormatError.self) { try AnnexB.Configuration([1, 100, 0, 30, 0xFF, 0xE1, 0, 200, 1], codec: .h264) }
        #expect(throws: MediaFormatError.self, "no parameter sets") {
            try AnnexB.Configuration([1, 100, 0, 30, 0xFF, 0xE0, 0], codec: .h264)
        }
        #expect(throws: MediaFormatError.self) { try AnnexB.Configuration(Array(repeating: 0, count: 10), codec: .h265) }
        let configuration = try AnnexB.Configuration([1, 100, 0, 30, 0xFF, 0xE1, 0, 2, 0x67, 1, 1, 0, 1, 0x68], codec: .h264)
        #expect(configuration.parameterSets == [[0x67, 1], [0x68]])
        #expect(throws: MediaFormatError.self, "a length past the end") {
            try AnnexB.stream(configuration, sample: [0, 0, 0x10, 0, 0x65, 1])
        }
        #expect(throws: MediaFormatError.self) { try AnnexB.stream(configuration, sample: []) }
        #expect(try AnnexB.stream(configuration, sample: [0, 0, 0, 2, 0x65, 9]) == [
            0, 0, 0, 1, 0x67, 1, 0, 0, 0, 1, 0x68, 0, 0, 0, 1, 0x65, 9,
        ])
    }

    /// NAL units between 4-byte start codes (the stream writes no 3-byte ones).
    static func split(_ stream: [UInt8]) -> [[UInt8]] {
        var units: [[UInt8]] = []
        var start: Int?
        var i = 0
        while i + 4 <= stream.count {
            if stream[i] == 0, stream[i + 1] == 0, stream[i + 2] == 0, stream[i + 3] == 1 {
                if let s = start { units.append(Array(stream[s..<i])) }
                start = i + 4
                i += 4
            } else {
                i += 1
            }
        }
        if let s = start { units.append(Array(stream[s...])) }
        return units
    }
}
