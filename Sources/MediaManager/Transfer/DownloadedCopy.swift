import Checksums
import Foundation
import POSIX

extension DownloadedCopy {
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
