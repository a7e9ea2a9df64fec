import Foundation
import MediaFormats
import TestSupport
import Testing

/// The movie reader on the demo clips, checked against what ffprobe reports for the same files.
@Suite("MovieReader on the demo clips, against ffprobe", .tags(.process), .notInFastRun)
struct MovieReaderFixtureTests {
    @Test(arguments: Fixtures.videos)
    func movieMatchesFFprobe(name: String) throws {
        let info = try MovieReader().read(from: Fixtures.source(name))
        let (probe, keyframeTimes) = try Reference.probe(name)

        #expect(info.majorBrand?.description == probe.format.tags?.majorBrand)
        let formatDuration = try #require(probe.format.duration.flatMap(Double.init))
        #expect(abs((info.durationSeconds ?? -1) - formatDuration) < 0.05)
        #expect(info.tracks.count == probe.streams.count)

        let video = try #require(info.videoTrack)
        let probeVideo = try #require(probe.streams.first { $0.codecType == "video" })
        #expect(video.codec?.description == probeVideo.codecTagString)
        #expect(video.codedWidth == probeVideo.width)
        #expect(video.codedHeight == probeVideo.height)
        #expect(video.rotation == probeVideo.clockwiseRotation)
        #expect(video.sampleTable.count == Int(probeVideo.nbFrames ?? ""))
        let frameTime = 1 / (rate(probeVideo.rFrameRate) ?? 1)
        #expect(abs(video.durationSeconds - (Double(probeVideo.duration ?? "") ?? -1)) <= frameTime)
        #expect(abs((video.frameRate ?? 0) - (rate(probeVideo.avgFrameRate) ?? -1)) < 0.01)
        #expect(abs((video.sampleTable.nominalFrameRate ?? 0) - (rate(probeVideo.rFrameRate) ?? -1)) < 0.01)

        let table = video.sampleTable
        let ourKeyframes = table.keyframeIndices.map { table.presentationSeconds(ofSample: $0) }
        #expect(ourKeyframes.count == keyframeTimes.count)
        for (ours, theirs) in zip(ourKeyframes, keyframeTimes) {
            #expect(abs(ours - theirs) < 0.001, "keyframe at \(ours) s, ffprobe says \(theirs) s")
        }

        if let probeAudio = probe.streams.first(where: { $0.codecType == "audio" }) {
            let audio = try #require(info.audioTrack)
            #expect(audio.codec?.description == probeAudio.codecTagString)
            #expect(audio.sampleRate == Double(probeAudio.sampleRate ?? ""))
            #expect(audio.channelCount == probeAudio.channels)
            #expect(audio.sampleTable.count == Int(probeAudio.nbFrames ?? ""))
        } else {
            #expect(info.audioTrack == nil)
        }
    }

    /// Every video packet ffprobe lists (decode order) has the same file position, size, decode and
    /// presentation time and keyframe flag in our sample table: offsets from stsc/stco, times from
    /// stts/ctts and the edit list.
    @Test(.enabled(if: ExternalTool.ffprobe != nil, "needs ffprobe"), arguments: Fixtures.videos)
    func everyVideoSampleMatchesFFprobePackets(name: String) throws {
        let table = try #require(try MovieReader().read(from: Fixtures.source(name)).videoTrack).sampleTable
        let packets = try Reference.livePackets(name, stream: "v:0")
        try #require(packets.count == table.count)
        for (index, (sample, packet)) in zip(table.samples, packets).enumerated() {
            let shift = sample.compositionTime - sample.presentationTime
            #expect(sample.offset == packet.position, "sample \(index) offset")
            #expect(Int(sample.size) == packet.size, "sample \(index) size")
            #expect(sample.isKeyframe == packet.isKeyframe, "sample \(index) keyframe flag")
            #expect(abs(table.seconds(sample.presentationTime) - packet.pts) < 0.0005, "sample \(index) pts")
            #expect(abs(table.seconds(sample.decodeTime - shift) - packet.dts) < 0.0005, "sample \(index) dts")
        }
    }

    @Test(.enabled(if: ExternalTool.ffprobe != nil, "needs ffprobe"), arguments: ["landscape_faststart.mp4", "clip.mov"])
    func everyAudioSampleMatchesFFprobePackets(name: String) throws {
        let table = try #require(try MovieReader().read(from: Fixtures.source(name)).audioTrack).sampleTable
        let packets = try Reference.livePackets(name, stream: "a:0")
        try #require(packets.count == table.count)
        for (sample, packet) in zip(table.samples, packets) {
            #expect(sample.offset == packet.position)
            #expect(Int(sample.size) == packet.size)
        }
    }

    /// The committed fallback values still describe the files, so machines without ffprobe test the truth.
    @Test(.enabled(if: ExternalTool.ffprobe != nil, "needs ffprobe"), arguments: Fixtures.videos)
    func committedReferenceAgreesWithFFprobe(name: String) throws {
        let committed = try #require(try Reference.committed().videos[name])
        let live = try #require(try Reference.liveProbe(name))
        #expect(committed.keyframeTimes == live.keyframeTimes)
        #expect(committed.probe.format.duration == live.result.format.duration)
        #expect(committed.probe.format.tags?.majorBrand == live.result.format.tags?.majorBrand)
        #expect(committed.probe.streams.count == live.result.streams.count)
        for (old, new) in zip(committed.probe.streams, live.result.streams) {
            #expect(old.codecTagString == new.codecTagString)
            #expect(old.width == new.width && old.height == new.height)
            #expect(old.nbFrames == new.nbFrames && old.duration == new.duration)
            #expect(old.avgFrameRate == new.avgFrameRate && old.rFrameRate == new.rFrameRate)
            #expect(old.clockwiseRotation == new.clockwiseRotation)
        }
    }

    @Test func layoutAndOrientationOfEachClip() throws {
        let expected: [(String, fastStart: Bool, brand: String, DisplayOrientation, width: Int, height: Int)] = [
            ("landscape_faststart.mp4", true, "isom", .landscape, 640, 360),
            ("portrait_moovend.mp4", false, "isom", .portrait, 360, 640),
            ("clip.mov", false, "qt  ", .landscape, 640, 360),
            ("landscape_proxy_160x90.lrf", true, "isom", .landscape, 160, 90),
            ("portrait_proxy_160x90.lrf", true, "isom", .portrait, 90, 160),
        ]
        for (name, fastStart, brand, orientation, width, height) in expected {
            let info = try MovieReader().read(from: Fixtures.source(name))
            let video = try #require(info.videoTrack)
            #expect(info.isFastStart == fastStart, "\(name)")
            #expect(info.majorBrand == FourCC(brand), "\(name)")
            #expect(info.isQuickTime == (brand == "qt  "), "\(name)")
            #expect(video.orientation == orientation, "\(name)")
            #expect(video.displayWidth == width && video.displayHeight == height, "\(name)")
            #expect(video.kind == .video && video.handler == "vide")
            #expect(info.creationDate == nil, "ffmpeg's bit-exact mode writes no creation time")
        }
    }

    /// moov is where the file says it is: before mdat for fast start, after it otherwise.
    @Test func movieBoxPositionMatchesTheFile() throws {
        for name in ["landscape_faststart.mp4", "portrait_moovend.mp4"] {
            let bytes = try Fixtures.bytes(name)
            let info = try MovieReader().read(from: MemoryByteSource(bytes))
            let start = Int(info.movieBoxOffset)
            #expect(Array(bytes[start + 4..<start + 8]) == Array("moov".utf8))
            #expect(UInt64(bytes[start]) << 24 | UInt64(bytes[start + 1]) << 16 | UInt64(bytes[start + 2]) << 8
                | UInt64(bytes[start + 3]) == info.movieBoxSize)
            if info.isFastStart {
                #expect(start + Int(info.movieBoxSize) < bytes.count)
            } else {
                #expect(start + Int(info.movieBoxSize) == bytes.count)
            }
        }
    }
}
