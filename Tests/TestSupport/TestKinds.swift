import Foundation
import Testing

/// What a test needs beyond its own process, as tags: the tests that start another program, bind a port on
/// 127.0.0.1, or mount with FUSE. `MEDIASHELL_TESTS=fast swift test` leaves them out (`.notInFastRun`):
/// the in-process tests alone, for the edit-and-run loop; `scripts/test` and CI run every one.
extension Tag {
    /// Starts another program: the built mediashell, expect, gphoto2, ffmpeg, a shell script.
    @Tag public static var process: Self
    /// Binds a port on 127.0.0.1 (a PTP/IP or Fujifilm server, a stream server, discovery).
    @Tag public static var port: Self
    /// Mounts with FUSE (`/dev/fuse`, fusermount3).
    @Tag public static var fuse: Self
}

/// The run the environment asks for.
public enum TestRun {
    /// `MEDIASHELL_TESTS=fast`: the tests tagged `process`, `port` or `fuse` are skipped.
    public static let isFast = ProcessInfo.processInfo.environment["MEDIASHELL_TESTS"] == "fast"
}

extension Trait where Self == ConditionTrait {
    /// Skipped in a fast run (`MEDIASHELL_TESTS=fast`), said so in the results.
    public static var notInFastRun: Self {
        .disabled(if: TestRun.isFast, "MEDIASHELL_TESTS=fast leaves out tests that start programs, bind ports or mount")
    }
}
