import TestSupport
import Testing
import VirtualCamera

@testable import Serve

/// `serve` is safe by default (issue 29): read-only unless `--writable`, `--read-only` still accepted as the
/// default said out loud, and a listen beyond loopback says what it exposes.
@Suite(.tags(.port), .notInFastRun) struct ServeExposureTests {
    @Test func readOnlyUnlessWritable() throws {
        let plain = try ServeCommand(arguments: ["/card"])
        #expect(!plain.writable && plain.uploads == nil)
        #expect(plain.accessWords == "read-only: --writable allows deletes, captures and uploads")
        let explicit = try ServeCommand(arguments: ["--read-only", "/card"])
        #expect(!explicit.writable && explicit.readOnlyGiven)
        let writable = try ServeCommand(arguments: ["--writable", "/card"])
        #expect(writable.writable && writable.uploads != nil)
        #expect(writable.accessWords.hasPrefix("writable: deletes, captures, uploads up to "))
        let capped = try ServeCommand(arguments: ["--max-upload", "1M", "/card"])
        #expect(capped.writable && capped.uploads != nil && capped.uploads?.maximumObjectSize != UploadPolicy().maximumObjectSize)
        let demo = try ServeCommand(arguments: ["--writable"])
        #expect(demo.writable && demo.uploads == nil)
        #expect(demo.accessWords == "writable: deletes and captures change only the copy in memory")
    }

    @Test func loopbackSaysNothingMore() throws {
        for listen in ["127.0.0.1:0", "127.0.0.2:15740", "[::1]:0", "localhost:0", "0"] {
            let serve = try ServeCommand(arguments: ["--listen", listen, "/card"])
            #expect(serve.exposureWarning(port: 15740) == nil, "\(listen)")
        }
    }

    @Test func beyondLoopbackSaysWhatIsExposed() throws {
        let readOnly = try ServeCommand(arguments: ["--listen", "0.0.0.0:15740", "/srv/card"])
        #expect(readOnly.exposureWarning(port: 15740) == """
            serve: listening beyond loopback on port 15740: any computer that can reach this one may list and \
            download every file under /srv/card (read-only: nothing on it changes), with no password \
            (--listen 127.0.0.1:15740 keeps it to this computer)
            """)
        let writable = try ServeCommand(arguments: ["--writable", "--listen", "192.168.1.20:0", "/srv/card"])
        #expect(writable.exposureWarning(port: 40001) == """
            serve: listening beyond loopback on port 40001: any computer that can reach 192.168.1.20 may list \
            and download every file under /srv/card, and delete, capture and upload into it, with no password \
            (--listen 127.0.0.1:40001 keeps it to this computer)
            """)
        let demo = try ServeCommand(arguments: ["--listen", "[::]:0"])
        #expect(demo.exposureWarning(port: 1)?.contains("any computer that can reach this one may list and download the demo card") == true)
    }
}
