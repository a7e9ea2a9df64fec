import Foundation
import TestSupport
import Testing

/// `serve` must stay up, and leak nothing, across many consecutive clients. Takes over a minute, so it runs
/// in `scripts/test`'s slow step (MEDIASHELL_SLOW_TESTS=1).
@Suite(.enabled(if: ProcessInfo.processInfo.environment["MEDIASHELL_SLOW_TESTS"] == "1"), .tags(.process), .notInFastRun)
struct ServeSoakTests {
    @Test(.enabled(if: Gphoto2InteropTests.gphoto2 != nil))
    func serveStaysUpAcrossAThousandGphoto2ConnectionsWithoutLeaks() throws {
        let fixture = try Gphoto2InteropTests.Fixture()
        let server = try ServeProcess(arguments: [fixture.card])
        defer { _ = server.stop() }
        let idle = try server.resources()
        for _ in 0..<5 { _ = try fixture.gphoto2(server.port, ["--list-files"]) }
        #expect(server.waitForLog("serve: session", count: 5))
        let before = try server.resources(afterThreadsNewerThan: idle)
        var failures: [String] = []
        for i in 0..<1000 {
            let result = try fixture.gphoto2(server.port, ["--list-files"], timeout: 30)
            if result.status != 0 || !result.stdout.contains("DJI_0010.JPG") {
                failures.append("run \(i): status \(result.status) \(result.stderr.prefix(200))")
                if failures.count > 5 { break }
            }
        }
        #expect(failures.isEmpty, "\(failures)")
        #expect(server.waitForLog("serve: session", count: 1005))
        let after = try server.resources(afterThreadsNewerThan: before)
        #expect(after.fds == before.fds, "descriptors \(before.fds) -> \(after.fds)")
        #expect(after.threads.count == before.threads.count, "threads \(before.threads.count) -> \(after.threads.count)")
        #expect(server.stop() == 0)
    }
}
