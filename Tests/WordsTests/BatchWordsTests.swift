import Import
import Testing
import Words

/// A batch's summary line counts what happened (issue 41.5).
@Suite struct BatchWordsTests {
    /// A backup disk that filled up: the files came home but are missing there, so they failed.
    @Test func filesMissingFromADestinationCountAsFailed() {
        var summary = BatchSummary()
        summary.fetched = 9
        summary.missingCopies = (1...9).map { "IMG_000\($0).JPG" }
        summary.bytes = 9_000_000
        summary.seconds = 1
        let line = BatchWords.summaryLine(summary, command: "import")
        #expect(line.hasPrefix("import: 9 fetched, 0 skipped (already imported), 0 renamed, 9 failed (9 not in every destination); "), "\(line)")
    }

    /// Bytes written into `.part`s that stopped are counted, and said to be kept.
    @Test func bytesKeptInPartsAreCountedAndSaid() {
        var summary = BatchSummary()
        summary.bytes = 30_000_000
        summary.bytesKept = 28_700_000
        summary.seconds = 3
        let line = BatchWords.summaryLine(summary, command: "import")
        #expect(line.hasSuffix("30.0 MB in 3.0 s (10.0 MB/s), 28.7 MB of it kept in .part files for the next run to continue"), "\(line)")
    }
}
