import Checksums
import Foundation
import POSIX

/// What a local folder holds of one camera file, by the clash policy `fetch` follows (`ClashResolver`): a
/// copy proven to be this file, at its name or at the numbered name a fetch gave it beside a different
/// file (`NAME (2).JPG`); a different file at its name; or nothing. A file of its name is never taken for
/// it on its name alone.
public enum DownloadedCopy: Sendable, Equatable {
    /// Nothing at its name: a fetch writes it there.
    case absent
    /// A file proven to hold it: same size and a modification time within two seconds of its capture
    /// time (what `fetch` gives a download), or the checksum recorded when it was imported.
    case proven(path: String)
    /// A different file holds its name, and no numbered name holds a proven copy; a fetch writes it at
    /// `freePath`.
    case different(path: String, freePath: String)

    /// Looks for the camera file of `size` bytes captured at `captured` (the device's date) or
    /// `orCaptured` (its resolved capture time) at `desired` and the numbered names after it, as far as
    /// the first free one. `knownHash` is asked, once, only when a file of its size is there but not of
    /// its time: it may read a ledger, and the hash reads the file.
    public static func find(
        _ desired: String, size: UInt64, captured: Date?, orCaptured: Date?, knownHash: () -> Checksum?
    ) -> DownloadedCopy {
        var hash: Checksum??
        var attempt = 1
        while true {
            let candidate = attempt == 1 ? desired : ClashResolver.numbered(desired, attempt)
            attempt += 1
            guard LocalDisk.exists(candidate) else {
                return attempt == 2 ? .absent : .different(path: desired, freePath: candidate)
            }
            guard LocalDisk.regularFileSize(candidate) == size else { continue }
            if ClashResolver.sameContent(candidate, captured: captured, knownHash: nil)
                || ClashResolver.sameContent(candidate, captured: orCaptured, knownHash: nil)
            {
                return .proven(path: candidate)
            }
            if hash == nil { hash = .some(knownHash()) }
            if let known = hash ?? nil, ClashResolver.sameContent(candidate, captured: nil, knownHash: known) {
                return .proven(path: candidate)
            }
        }
    }
}
