import MediaFormats
import MediaManager
import Playback

extension MediaSession {
    /// A camera video ready for `PlaybackController.play`: its movie box read through a few partial reads
    /// (never the media data), and the file as a byte source the streaming endpoint serves from.
    func playbackMedia(for file: MediaFile) throws -> PlaybackMedia {
        try PlaybackMedia.read(name: file.name, from: byteSource(for: file))
    }
}
