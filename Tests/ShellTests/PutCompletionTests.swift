import CommandKit
import Foundation
import Testing

@testable import Shell
@testable import TerminalKit

/// Tab after `put` completes local paths (the files to send); after `put -o`, `mkdir` and `rmdir`, the
/// camera's folders.
@Suite struct PutCompletionTests {
    @Test func putCompletesLocalPathsAndItsOutputCameraFolders() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("msh-put-completion-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: base) }
        try FileManager.default.createDirectory(at: base.appendingPathComponent("to send"), withIntermediateDirectories: true)
        try Data().write(to: base.appendingPathComponent("to send/IMG_0001.JPG"))
        try Data().write(to: base.appendingPathComponent("clip.mp4"))
        let context = FakeCatalog(
            ["": [CompletionEntry("DCIM", isFolder: true), CompletionEntry("camera-file.jpg")],
             "DCIM/": [CompletionEntry("100MEDIA", isFolder: true)]],
            localBase: base.path)
        let engine = CompletionEngine()
        func complete(_ marked: String) -> String { engine.complete(marked: marked, in: context).line }

        #expect(complete("put cl|") == "put clip.mp4 |")
        #expect(complete("put to|") == "put to\\ send/|")
        #expect(complete("put to\\ send/IM|") == "put to\\ send/IMG_0001.JPG |")
        #expect(complete("put clip.mp4 to\\ send/|") == "put clip.mp4 to\\ send/IMG_0001.JPG |")
        #expect(complete("put -o DC|") == "put -o DCIM/|")
        #expect(complete("mkdir DCIM/1|") == "mkdir DCIM/100MEDIA/|")
        #expect(complete("rmdir DC|") == "rmdir DCIM/|")
    }
}
