extension MovieInfo {
    /// Per track ID, the decode time after the movie box's own samples: where fragments without `tfdt`
    /// continue.
    var decodeEnds: [UInt32: Int64] {
        Dictionary(tracks.map { ($0.id, $0.sampleTable.duration) }, uniquingKeysWith: { first, _ in first })
    }

    /// Adds the samples read from the movie's fragments to their tracks; `movieDuration` (`mehd`) replaces
    /// an unset `mvhd` duration.
    mutating func appendFragments(_ found: FragmentWalker.Result, movieDuration: UInt64?) throws {
        fragmentCount = found.fragmentCount
        isTruncated = isTruncated || found.endsInsideABox
        if declaredDuration == 0, let movieDuration { declaredDuration = movieDuration }
        for index in tracks.indices {
            guard let extra = found.samples[tracks[index].id], !extra.isEmpty else { continue }
            try tracks[index].appendSamples(extra, endingAt: found.decodeEnds[tracks[index].id])
        }
    }

    /// Takes a long fragmented movie as read from its index (see `IndexedFragments`): the first fragment's
    /// samples, the video track's timeline on its frame grid, and no timeline for other fragmented tracks
    /// (their fragments were not read).
    mutating func adoptIndexedFragments(_ indexed: IndexedFragments.Result, sourceLength: UInt64) throws {
        fragmentCount = indexed.fragmentCount
        fragmentsFromIndex = true
        var prebuilt: [UInt32: Result<TrackTimeline, MediaFormatError>] = [indexed.trackID: .success(indexed.timeline)]
        for index in tracks.indices {
            let id = tracks[index].id
            guard let samples = indexed.firstFragment[id], !samples.isEmpty else { continue }
            try tracks[index].appendSamples(samples, endingAt: nil)
            if id != indexed.trackID {
                prebuilt[id] = .failure(MediaFormatError(.fragmentedTrack(id)))
            }
        }
        buildTimelines(sourceLength: sourceLength, prebuilt: prebuilt)
    }

    /// Builds every track's timeline (or takes the one in `prebuilt`) and the movie's duration from them
    /// (see `durationSeconds`).
    mutating func buildTimelines(
        sourceLength: UInt64, prebuilt: [UInt32: Result<TrackTimeline, MediaFormatError>] = [:]
    ) {
        for index in tracks.indices {
            if let timeline = prebuilt[tracks[index].id] {
                tracks[index].timeline = timeline
            } else {
                tracks[index].buildTimeline(sourceLength: sourceLength)
            }
            if case .success(let timeline) = tracks[index].timeline, timeline.truncation != nil { isTruncated = true }
        }
        let lengths = tracks.compactMap(\.presentedDurationSeconds)
        if let longest = lengths.max(), longest > 0 || declaredDuration == 0 {
            durationSeconds = longest
        } else if declaredDuration > 0 {
            durationSeconds = Double(declaredDuration) / Double(timescale)
        } else {
            durationSeconds = nil
        }
    }
}

extension TrackInfo {
    /// Appends samples from movie fragments (decode order, after the movie box's), shifting their
    /// presentation times by the edit list as the movie box's are.
    mutating func appendSamples(_ extra: [Sample], endingAt mediaEnd: Int64?) throws {
        let shift = EditListEntry.firstShift(editList ?? [], movieTimescale: movieTimescale, mediaTimescale: timescale)
        var samples = sampleTable.samples
        samples.reserveCapacity(samples.count + extra.count)
        var tally: [Int64: Int] = [:]
        for (index, sample) in samples.enumerated() where index + 1 < samples.count {
            tally[samples[index + 1].decodeTime - sample.decodeTime, default: 0] += 1
        }
        var end = sampleTable.duration
        for var sample in extra {
            sample.presentationTime = sample.compositionTime - shift
            if let last = samples.last { tally[sample.decodeTime - last.decodeTime, default: 0] += 1 }
            samples.append(sample)
            end = max(end, sample.decodeTime)
        }
        // The last sample lasts as long as the most common sample.
        let typical = tally.filter { $0.key > 0 }.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key ?? 0
        if let last = samples.last { end = max(end, mediaEnd ?? last.decodeTime + typical) }
        sampleTable = SampleTable(timescale: timescale, samples: samples, duration: end, typicalSampleDuration: typical)
    }

    /// Builds `timeline` from the samples, the edit list and the file's length.
    mutating func buildTimeline(sourceLength: UInt64) {
        let builder = TrackTimelineBuilder(
            table: sampleTable, edits: editList, movieTimescale: movieTimescale, mediaDuration: duration,
            sourceLength: sourceLength, trackName: "track \(id)", startsAtFirstFrame: kind == .video)
        do {
            let built = try builder.build()
            if built.rebase != 0 { sampleTable = sampleTable.movingPresentation(by: -built.rebase) }
            timeline = .success(built)
        } catch {
            // The builder throws MediaFormatError alone (it reads no bytes and is never cancelled).
            timeline = .failure(error as? MediaFormatError ?? MediaFormatError(.timelineNotBuilt))
        }
    }
}
