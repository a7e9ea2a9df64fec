import CommandKit
import MediaFormats
import MediaManager
import POSIX
import Playback
import TerminalKit
import Thumbnails

/// The frame a video is paused on, as `thumb` shows it: that frame's own picture (decoded by ffmpeg from the
/// keyframe before it, as mpv's exact seek does), not its keyframe's.
struct PausedFrame {
    /// The camera file loaded in the player.
    let file: MediaFile
    /// The frame's number (from 0, as `status` counts) and time.
    let frameIndex: Int
    let time: Double

    /// The words for the frame: "frame 637 at 0:25.48".
    var words: String { "frame \(frameIndex) at \(TimeText.frameTime(time))" }

    /// The file name `thumb --save` writes it as: `DJI_0006.MP4.frame637.jpg`.
    var saveName: String { "\(file.name).frame\(frameIndex).jpg" }
}

extension PlaybackContext {
    /// The frame a bare `thumb` shows instead of the selected file's thumbnail: set while the loaded video is
    /// paused (or ended on its last frame) and is the selected file (or nothing is selected).
    var pausedFrame: PausedFrame? {
        guard let video = loadedVideo, let status = playback.status(), status.state == .paused || status.state == .ended,
            state.selection == nil || state.selection?.file.path == video.path
        else { return nil }
        return PausedFrame(file: video, frameIndex: status.frameIndex, time: status.frameTime)
    }

    /// The picture of `frame`: its samples from the keyframe before it read from the camera by range (Ctrl-C
    /// stops between reads and kills ffmpeg), made a JPEG at most 320 pixels wide.
    func picture(of frame: PausedFrame, session: MediaSession) throws -> Thumbnail {
        guard let decoder = KeyframeDecoder.find(environment: environment) else {
            throw CommandError("the picture of a paused frame is decoded by ffmpeg, which is not installed")
        }
        guard let media = playback.engine.loadedMedia, let track = media.movie.videoTrack else {
            throw CommandError("no video is loaded")
        }
        let interrupt = self.interrupt
        let jpeg = try interruptibly(session) {
            try MovieFrame.jpeg(
                frame: frame.frameIndex, of: track, from: media.source, name: frame.file.name, decoder: decoder,
                cancellation: interrupt.cancellation)
        }
        return Thumbnail(jpeg: jpeg, origin: .frame(frame.words))
    }
}
