import Failures
import Foundation
import POSIX
import TestSupport
import Testing

/// The local-file calls every module shares: each failure names the call, the file and the errno.
@Suite struct LocalDiskTests {
    @Test func makeDirectoryMakesTheMissingFoldersAndSaysWhyItCannot() throws {
        let folder = try TemporaryFolder("msh-localdisk")
        try LocalDisk.makeDirectory(folder.path("a/b/c"))
        try LocalDisk.makeDirectory(folder.path("a/b/c"))  // already there: fine
        #expect(LocalDisk.isDirectory(folder.path("a/b/c")))
        try folder.write("file", [1])
        let error = #expect(throws: SystemError.self) { try LocalDisk.makeDirectory(folder.path("file/sub")) }
        #expect(error?.call == .mkdir && error?.errno == ENOTDIR && error?.path == folder.path("file/sub"))
        #expect(error?.category == .localIO)
    }

    @Test func makeDirectoryWithinARootNeverMakesTheRootAgain() throws {
        let folder = try TemporaryFolder("msh-localdisk")
        let root = folder.path("drive")
        try LocalDisk.makeDirectory(root)
        try LocalDisk.makeDirectory(root + "/2024/06-01", within: root)
        #expect(LocalDisk.isDirectory(root + "/2024/06-01"))
        // The drive pulled, its mount point gone with it: nothing is made, on the disk beneath or anywhere.
        try FileManager.default.removeItem(atPath: root)
        #expect(throws: SystemError.self) { try LocalDisk.makeDirectory(root + "/2024/06-02", within: root) }
        do {
            try LocalDisk.makeDirectory(root + "/2024/06-02", within: root)
        } catch {
            #expect(error.errno == ENOENT)
        }
        #expect(!LocalDisk.exists(root))
    }

    @Test func readWholeIsNilForNoFileAndRefusesOneOverTheLimit() throws {
        let folder = try TemporaryFolder("msh-localdisk")
        #expect(try LocalDisk.readWhole(folder.path("none"), limit: 10) == nil)
        try folder.write("big", [UInt8](repeating: 7, count: 100))
        #expect(try LocalDisk.readWhole(folder.path("big"), limit: 100) == [UInt8](repeating: 7, count: 100))
        let error = #expect(throws: SystemError.self) { try LocalDisk.readWhole(folder.path("big"), limit: 99) }
        #expect(error?.call == .read && error?.errno == EFBIG && error?.path == folder.path("big"))
    }

    @Test func readPrefixStopsAtTheCountAndCallsAShortFileAnError() throws {
        let folder = try TemporaryFolder("msh-localdisk")
        try folder.write("f", Array(0..<200))
        var seen: [UInt8] = []
        try LocalDisk.readPrefix(folder.path("f"), count: 150) { seen += $0 }
        #expect(seen == Array(0..<150))
        let error = #expect(throws: SystemError.self) { try LocalDisk.readPrefix(folder.path("f"), count: 201) { _ in } }
        #expect(error?.errno == EIO && error?.path == folder.path("f"))
    }

    @Test func writeAtomicallyReplacesTheFileAndLeavesNoTemporary() throws {
        let folder = try TemporaryFolder("msh-localdisk")
        try folder.write("ledger", [1, 2, 3])
        try LocalDisk.writeAtomically([9, 9], to: folder.path("ledger"))
        #expect(folder.read("ledger") == [9, 9])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["ledger"])
    }

    @Test func aLockHeldElsewhereIsNilWithoutWaiting() throws {
        let folder = try TemporaryFolder("msh-localdisk")
        let held = try #require(try LocalDisk.lock(folder.path("run"), wait: false))
        #expect(try LocalDisk.lock(folder.path("run"), wait: false) == nil)
        LocalDisk.unlock(held)
        let again = try #require(try LocalDisk.lock(folder.path("run"), wait: false))
        LocalDisk.unlock(again)
    }

    @Test func aPartIsNeverOpenedThroughASymlink() throws {
        let folder = try TemporaryFolder("msh-localdisk")
        try FileManager.default.createSymbolicLink(atPath: folder.path("x.part"), withDestinationPath: "/etc/passwd")
        let error = #expect(throws: SystemError.self) { try LocalDisk.openForWriting(folder.path("x.part")) }
        #expect(error?.call == .open && error?.errno == ELOOP)
    }

    /// The rename of a whole `.part` into place: in one step, refused (EEXIST, nothing changed) when any
    /// file, folder or link is at the name.
    @Test func renameKeepingExistingNeverReplacesWhatIsThere() throws {
        let folder = try TemporaryFolder("msh-localdisk")
        try folder.write("A.JPG.part", [1, 2])
        try LocalDisk.renameKeepingExisting(folder.path("A.JPG.part"), to: folder.path("A.JPG"))
        #expect(folder.read("A.JPG") == [1, 2] && !folder.exists("A.JPG.part"))

        try folder.write("A.JPG.part", [3])
        try LocalDisk.makeDirectory(folder.path("D.JPG"))
        symlink(folder.path("nowhere"), folder.path("L.JPG"))
        for taken in ["A.JPG", "D.JPG", "L.JPG"] {
            let error = #expect(throws: SystemError.self) {
                try LocalDisk.renameKeepingExisting(folder.path("A.JPG.part"), to: folder.path(taken))
            }
            #expect(error?.errno == EEXIST && error?.call == .rename && error?.path == folder.path(taken))
        }
        #expect(folder.read("A.JPG") == [1, 2] && folder.read("A.JPG.part") == [3])
        #expect(LocalDisk.isDirectory(folder.path("D.JPG")))
        // Nothing to rename is an error about the source.
        let missing = #expect(throws: SystemError.self) {
            try LocalDisk.renameKeepingExisting(folder.path("none.part"), to: folder.path("none"))
        }
        #expect(missing?.errno == ENOENT && missing?.path == folder.path("none.part"))
    }

    @Test func namesInAFolderAreReadInOnePassAndNoneForNoFolder() throws {
        let folder = try TemporaryFolder("msh-localdisk")
        try folder.write("a", [1])
        try folder.write("B.JPG.part", [1])
        try LocalDisk.makeDirectory(folder.path("sub"))
        #expect(LocalDisk.names(in: folder.path)?.sorted() == ["B.JPG.part", "a", "sub"])
        #expect(LocalDisk.names(in: folder.path("not/there")) == [])
        #expect(LocalDisk.names(in: folder.path("a")) == [], "a file where the folder would be holds no names")
    }

    @Test func theQuestionsAnswerForWhatIsThereAndNil() throws {
        let folder = try TemporaryFolder("msh-localdisk")
        try folder.write("f", [1, 2, 3])
        #expect(LocalDisk.size(folder.path("f")) == 3 && LocalDisk.regularFileSize(folder.path("f")) == 3)
        #expect(LocalDisk.regularFileSize(folder.path) == nil && LocalDisk.size(folder.path("none")) == nil)
        try LocalDisk.setModificationTime(folder.path("f"), to: 1_600_000_000.5)
        #expect(LocalDisk.modificationTime(folder.path("f")) == 1_600_000_000.5)
        #expect(LocalDisk.parentFolder(of: "/a/b/") == "/a" && LocalDisk.parentFolder(of: "/a") == "/"
            && LocalDisk.parentFolder(of: "a") == ".")
        #expect(LocalDisk.freeBytes(near: folder.path("not/yet/made")) != nil)
    }
}
