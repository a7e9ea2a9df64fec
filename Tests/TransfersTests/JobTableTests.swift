import POSIX
import Testing

@testable import MediaManager
@testable import Transfers

/// Jobs numbered as a POSIX shell numbers them, their endings taken once, and the files each holds.
@Suite struct JobTableTests {
    private func ending(_ state: Job.State = .done) -> Job.Ending {
        Job.Ending(state: state, command: "fetch", summary: nil)
    }

    @Test func jobsAreNumberedFromOneAndTheirEndingsTakenOnce() throws {
        let table = JobTable()
        let first = try table.start(commandLine: "fetch A", remotePaths: ["DCIM/A.JPG"]) { _ in ending() }
        let second = try table.start(commandLine: "fetch B", remotePaths: ["DCIM/B.JPG"]) { _ in ending(.failed) }
        #expect([first.number, second.number] == [1, 2])
        #expect(first.waitForEnd(upTo: 10)?.state == .done)
        #expect(second.waitForEnd(upTo: 10)?.state == .failed)
        #expect(table.takeEnded().map(\.job.number) == [1, 2])
        #expect(table.takeEnded().isEmpty)
        let next = try table.start(commandLine: "fetch C", remotePaths: []) { _ in ending() }
        #expect(next.number == 1)
        _ = next.waitForEnd(upTo: 10)
        _ = table.takeEnded()
    }

    @Test func aRunningJobHoldsItsFilesAndKillEndsItsWait() throws {
        let table = JobTable()
        let gate = LockedCondition(false)
        let job = try table.start(commandLine: "fetch A", remotePaths: ["DCIM/A.JPG"]) { job in
            _ = gate.wait(until: .after(10), for: { $0 })
            return Job.Ending(state: job.cancellation.isCancelled ? .killed : .done, command: "fetch", summary: nil)
        }
        #expect(table.job("%1") === job)
        #expect(table.job(nil) === job)
        #expect(table.job("%2") == nil)
        #expect(table.holder(of: ["DCIM/A.JPG", "DCIM/B.JPG"]) === job)
        #expect(table.holder(of: ["DCIM/B.JPG"]) == nil)
        job.cancellation.cancel()
        gate.change { $0 = true }
        #expect(job.waitForEnd(upTo: 10)?.state == .killed)
        #expect(table.holder(of: ["DCIM/A.JPG"]) == nil)
        _ = table.takeEnded()
    }

    private func progress(_ name: String, _ done: UInt64, of total: UInt64) -> TransferProgress {
        TransferProgress(name: name, bytesDone: done, totalBytes: total, bytesPerSecond: 0, elapsed: 0)
    }

    @Test func theMeterCountsAWholeBatchFromEachFilesProgress() {
        var meter = JobMeter(filesTotal: 2, bytesTotal: 300)
        _ = meter.update(progress("A.JPG", 50, of: 100), bytesPerSecond: nil)
        var p = meter.update(progress("A.JPG", 100, of: 100), bytesPerSecond: 10)
        #expect(p.bytesDone == 100 && p.current == "A.JPG" && p.bytesPerSecond == 10)
        meter.fileEnded()
        p = meter.update(progress("B.MP4", 150, of: 200), bytesPerSecond: nil)
        #expect(p.bytesDone == 250 && p.filesDone == 1 && p.current == "B.MP4" && p.bytesPerSecond == 0)
        meter.fileEnded()
        meter.fileEnded()
        #expect(meter.progress(bytesPerSecond: nil).filesDone == 2)
    }
}
