import Failures
import Foundation
import Import
import MediaManager
import POSIX
import Testing

@testable import Shell
import Words

/// Local failures arrive as facts (call, path, errno); the shell says them.
@Suite struct LocalFailureWordsTests {
    @Test func aDownloadsLocalFailureReadsAsBefore() {
        let error = DownloadError.local(SystemError(.open, path: "/photos/A.JPG.part", errno: EACCES))
        #expect(ErrorWords.sentence(for: error) == "cannot open /photos/A.JPG.part: Permission denied")
        let full = DownloadError.local(SystemError(.write, path: "/photos/A.JPG.part", errno: ENOSPC))
        #expect(ErrorWords.sentence(for: full) == "cannot write /photos/A.JPG.part: No space left on device")
    }

    @Test func anImportsLocalFailureSaysTheCallInWords() {
        #expect(ErrorWords.sentence(for: ImportError.local(SystemError(.mkdir, path: "/x/y", errno: ENOTDIR)))
            == "cannot create /x/y: Not a directory")
        #expect(ErrorWords.sentence(for: ImportError.local(SystemError(.utimensat, path: "/x/A.JPG", errno: EPERM)))
            == "cannot set the time of /x/A.JPG: Operation not permitted")
        #expect(ErrorWords.sentence(for: ImportError.local(SystemError(.read, path: "/l.json", errno: EFBIG, detail: "larger than 9 bytes")))
            == "cannot read /l.json: larger than 9 bytes")
        #expect(ErrorWords.sentence(for: ImportError.appeared(path: "/x/A.JPG")) == "/x/A.JPG appeared during the import")
        #expect(ImportError.appeared(path: "/x").category == .alreadyExists)
    }
}
