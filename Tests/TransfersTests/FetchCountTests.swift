import Failures
import Foundation
import Import
import MediaFormats
import POSIX
import PTP
import Testing
import Transfers

@testable import MediaManager

/// Every fetch's summary counts its files one way (issue 41, one tally): at the prompt and as a job, a file
/// saved under a numbered name is fetched and renamed, a stopped one's bytes are kept, not failed.
@Suite struct FetchCountTests {
    func file(_ name: String) -> MediaFile {
        MediaFile(
            id: 1, storageID: 0x10001, parentID: 0, name: name, folder: "DCIM/100MEDIA", kind: .jpeg, isFolder: false,
            format: .exifJPEG, size: 1_000, captureDate: nil, video: nil)
    }

    @Test func eachKindOfResultIsCountedOnce() {
        var summary = BatchSummary()
        var renamed = MediaSession.FileResult(
            file: file("A.JPG"), outcome: .success(.downloaded(path: "/x/A (2).JPG", bytes: 1_000, resumedFrom: 400)), deleteError: nil)
        renamed.bytesWritten = 600
        summary.count(renamed)
        summary.count(MediaSession.FileResult(file: file("B.JPG"), outcome: .success(.skippedExisting(path: "/x/B.JPG")), deleteError: nil))
        var stopped = MediaSession.FileResult(
            file: file("C.JPG"),
            outcome: .failure(DownloadError.interrupted(remoteName: "C.JPG", path: "/x/C.JPG", at: 300, size: 1_000, cause: CancellationError())),
            deleteError: nil)
        stopped.bytesWritten = 300
        summary.count(stopped)
        var failed = MediaSession.FileResult(
            file: file("D.JPG"), outcome: .failure(DownloadError.sizeMismatch(path: "/x/D.JPG", expected: 1_000, got: 50)),
            deleteError: nil)
        failed.bytesWritten = 50
        summary.count(failed)
        #expect(summary.fetched == 1 && summary.renamed == 1 && summary.skipped == 1 && summary.failed == 1)
        #expect(summary.bytes == 950 && summary.bytesKept == 350)
    }
}
