import Foundation
import MediaManager
import POSIX
import TestSupport
import Testing

@testable import Shell

/// `fetch` and the room it needs (issue 41.7): a file that does not fit is refused before anything is
/// written (a `.part` that filled the disk made every next fetch fail too); what a kept `.part` holds
/// counts as there; a download folder that was not there is made, and said.
@Suite(.enabled(if: TinyDisk.available, "a small download disk is a tmpfs, which only root may mount"))
struct FetchSpaceTests {
    let card: TemporaryFolder
    let tiny: TemporaryFolder
    let interpreter: Interpreter
    let output: CapturedOutput

    init() throws {
        card = try makeCardFolder()  // DJI_0003.MP4: 3,000,000 bytes
        tiny = try TemporaryFolder("msh-tiny")
        let interrupt: ScriptedInterrupt
        (interpreter, output, interrupt) = makeInterpreter()
        _ = interrupt
        try interpreter.open(.folder(path: card.path))
        _ = interpreter.run(line: "cd DCIM/100MEDIA")
    }

    @Test func aFileThatDoesNotFitIsRefusedBeforeAnythingIsWritten() throws {
        try #require(TinyDisk.mount(tiny.path, bytes: 1 << 20))
        defer { TinyDisk.unmount(tiny.path) }
        #expect(interpreter.run(line: "fetch -o \(tiny.path) DJI_0003.MP4") == .failure)
        #expect(output.errors.last?.contains("not enough space in \(tiny.path): the files need 3.0 MB") == true, "\(output.errors)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: tiny.path).isEmpty)
    }

    /// 2.6 MB of the 3 MB clip kept in a disk of 3 MiB: the 0.4 MB left fits, so the fetch goes on.
    @Test func whatAKeptPartHoldsCountsAsThere() throws {
        try #require(TinyDisk.mount(tiny.path, bytes: 3 << 20))
        defer { TinyDisk.unmount(tiny.path) }
        let media = try #require(interpreter.media)
        let clip = try #require(media.catalog.file(atPath: "DCIM/100MEDIA/DJI_0003.MP4"))
        let bytes = try #require(card.read("DCIM/100MEDIA/DJI_0003.MP4"))
        try writeKeptPart(Array(bytes.prefix(2_600_000)), at: tiny.path + "/DJI_0003.MP4.part", of: media.partSource(clip))
        #expect(interpreter.run(line: "fetch -o \(tiny.path) DJI_0003.MP4") == .success, "\(output.errors)")
        #expect(output.lines.last?.contains("continued from 2.6 MB") == true, "\(output.lines)")
        let identical = FileManager.default.contents(atPath: tiny.path + "/DJI_0003.MP4") == Data(bytes)
        #expect(identical)
    }

    @Test func aDownloadFolderThatWasNotThereIsMadeAndSaid() throws {
        let folder = tiny.path + "/typo/sub"
        #expect(interpreter.run(line: "fetch -o \(folder) DJI_0001.JPG") == .success, "\(output.errors)")
        #expect(output.lines.first == "made the folder \(folder) (it was not there)", "\(output.lines)")
        #expect(LocalDisk.regularFileSize(folder + "/DJI_0001.JPG") != nil)
        // Said once: the next fetch there makes nothing.
        #expect(interpreter.run(line: "fetch -o \(folder) DJI_0002.JPG") == .success)
        #expect(!output.lines.dropFirst().contains { $0.hasPrefix("made the folder") }, "\(output.lines)")
    }
}
