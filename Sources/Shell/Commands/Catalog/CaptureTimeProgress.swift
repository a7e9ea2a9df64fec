import MediaManager
import POSIX
import TerminalKit
import Words

extension MediaSession {
    /// Reads the capture times of `files` not known yet, with a progress line on a terminal
    /// (`reading capture times 120/10000`); `cancellation` (Ctrl-C) stops it (the rest show the camera's date).
    public func readCaptureTimes(_ files: [MediaFile], output: ShellOutput, cancellation: Cancellation) {
        let write = output.progress
        var drew = false
        resolveCaptureTimes(
            files,
            progress: { done, total in
                guard let write, total >= 8 else { return }
                write("\r\u{1B}[Kreading capture times \(done)/\(total)")
                drew = true
            }, cancellation: cancellation)
        if drew { write?("\r\u{1B}[K") }
    }
}
