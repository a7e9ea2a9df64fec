import Foundation
import TestSupport
import Testing

/// A camera whose card is write-protected lists DeleteObject and refuses it (`serve` without --writable does
/// so, answering ObjectWriteProtected): the shell's `delete --force` says so per file, in words, and the file
/// stays. On 127.0.0.1, a port chosen at run time.
@Suite(.serialized, .tags(.port), .notInFastRun) struct WriteProtectedCardTests {
    @Test func deleteSaysTheCardIsWriteProtected() throws {
        let base = try TemporaryFolder("msh-write-protected")
        try base.write("card/DCIM/100MEDIA/DJI_0001.JPG", Array(repeating: 0xFF, count: 1000))
        let server = try ServeProcess(arguments: [base.path("card")])
        defer { _ = server.stop() }
        let result = try ProcessRunner.run(
            BuildProducts.mediashell,
            ["-n", "--camera", "ptpip:127.0.0.1:\(server.port)", "-c", "delete --force DCIM/100MEDIA/DJI_0001.JPG"],
            environment: ["HOME": base.path("home"), "XDG_STATE_HOME": base.path("state"), "LANG": "C"], timeout: 60)
        #expect(result.status != 0)
        #expect(result.stderr.contains("DCIM/100MEDIA/DJI_0001.JPG: write-protected: the camera keeps it"), "\(result.stderr)")
        #expect(result.stderr.contains("without --writable"), "\(result.stderr)")
        #expect(!result.stderr.contains("DeleteObject failed"), "not the raw response: \(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: base.path("card/DCIM/100MEDIA/DJI_0001.JPG")))
    }
}
