import CommandKit
import MediaManager
import TerminalKit
import Thumbnails

extension CommandContext {
    /// Hands the thumbnails of `files` (each once) to `body` in order as they arrive (`ThumbnailStream`):
    /// `body` gets the position among the files, the file and its thumbnail or why there is none. Ctrl-C
    /// cancels what is still queued (and a running ffmpeg), says so and ends `.interrupted`; a camera that
    /// went away is reported and closed (`.failed`).
    func eachThumbnail(
        of files: [MediaFile], session: MediaSession, command: String, wantsOrientation: Bool,
        _ body: (Int, MediaFile, Result<Thumbnail, Error>) -> Void
    ) -> CommandOutcome {
        let stream = ThumbnailStream(
            of: files, session: session, keyframes: KeyframeDecoder.find(environment: environment),
            wantsOrientation: wantsOrientation)
        let interrupt = self.interrupt
        for (index, file) in stream.files.enumerated() {
            // Asked before each file, not only while waiting: thumbnails that are already in must not keep a
            // sheet drawing after Ctrl-C.
            guard !interrupt.isPending, let result = stream.take(file, stopped: { interrupt.isPending }) else {
                stream.cancel()
                report("\(command): interrupted", severity: .notice)
                return .interrupted
            }
            if case .failure(let error) = result, Interpreter.isDisconnect(error) {
                stream.cancel()
                reportFailure(of: command, error)
                return .failed
            }
            body(index, file, result)
        }
        return .success
    }
}
