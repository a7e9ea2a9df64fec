import MediaManager
import POSIX
import TerminalKit

/// What a batch run at the prompt (`fetch`, `import`, `capture --fetch`, `watch --fetch`) needs of the shell
/// that runs it: its output and Ctrl-C, the clock and rate limit it is paced on, one way to report, and the
/// session state it keeps in step as files arrive, stop or leave the camera.
public protocol BatchHost: AnyObject {
    var output: ShellOutput { get }
    var interrupt: any InterruptSource { get }
    /// The clock transfers are paced and their rates measured on.
    var transferClock: any WaitClock { get }
    /// The most bytes per second a download may take; nil for no limit.
    var rateLimit: UInt64? { get }
    /// The camera's work mode as last set or read, nil when unknown.
    var cameraMode: CameraMode? { get set }

    /// One line on standard error, with the script's `FILE:LINE:` when in one.
    func report(_ message: String, severity: ReportSeverity)
    /// The camera went away during `command`: said with how to reconnect, and closed.
    func reportCameraGone(during command: String, _ error: Error)
    /// When a failure is the camera saying it is busy in shoot mode, how to get out of it; else "".
    func modeHint(for error: Error) -> String
    /// `file` arrived whole.
    func fileFetched(_ file: MediaFile)
    /// `file` stopped at `offset`, its `.part` kept for the next fetch to continue.
    func fileStopped(_ file: MediaFile, at offset: UInt64)
    /// The file at `path` is gone from the camera.
    func fileRemoved(path: String)
}

extension BatchHost {
    func report(_ message: String) { report(message, severity: .error) }
}
