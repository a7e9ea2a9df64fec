import Foundation
import MediaManager
import POSIX
import PTP
import TerminalKit
import TestSupport
import Testing
import Transfers
import VirtualCamera

@testable import Shell

/// `fetch ... &` and `import ... &` at the interpreter: other commands answer while the job is mid-transfer,
/// `jobs`, `wait` and `kill %N` do what they say, what would collide with the job is refused, and the file
/// arrives byte-identical (or keeps its `.part` when killed).
@Suite struct JobCommandTests {
    let card: TemporaryFolder
    let downloads: TemporaryFolder
    let interpreter: Interpreter
    let output: CapturedOutput

    init() throws {
        card = try makeCardFolder(bigFileSize: 3_000_000)
        downloads = try TemporaryFolder("msh-jobs")
        var settings = Settings()
        settings.downloadFolder = downloads.path
        (interpreter, output, _) = makeInterpreter(settings: settings)
        try interpreter.open(.folder(path: card.path))
        #expect(interpreter.run(line: "cd DCIM/100MEDIA") == .success)
    }

    private var big: String { card.path + "/DCIM/100MEDIA/DJI_0003.MP4" }

    /// The job is held mid-transfer by the rate limit (1 kB/s: after its first 64 kB chunk it waits a minute),
    /// which paces it between chunks, outside the session's turn; `kill` ends that wait at once.
    @Test func otherCommandsAnswerWhileAJobIsMidTransferAndTheFileArrivesWhole() throws {
        #expect(interpreter.run(line: "set limit-rate 1k; fetch DJI_0003.MP4 &; set limit-rate off") == .success)
        #expect(output.lines == ["[1] fetch DJI_0003.MP4"])
        let job = try #require(interpreter.jobs.running.first)
        #expect(interpreter.prompt == "dir:/DCIM/100MEDIA [1 job]> ")
        output.reset()
        #expect(interpreter.run(line: "ls DJI_0001.JPG; info DJI_0002.JPG; thumb DJI_0001.JPG") == .success)
        #expect(output.lines.first == "DJI_0001.JPG")
        #expect(output.standardOutput.contains("DJI_0002.JPG"))
        #expect(job.isRunning, "every answer came while the job was still running")
        output.reset()
        #expect(interpreter.run(line: "jobs") == .success)
        #expect(output.lines.count == 1 && output.lines[0].hasPrefix("[1] running  fetch DJI_0003.MP4  0/1 files"), "\(output.lines)")
        // What would pull the file or the camera from under the job is refused.
        #expect(interpreter.run(line: "delete --force DJI_0003.MP4") == .failure)
        #expect(interpreter.run(line: "fetch DJI_0003.MP4") == .failure)
        #expect(interpreter.run(line: "close") == .failure)
        #expect(output.errors.count == 3)
        #expect(output.errors[0].contains("is being fetched by job %1"))
        #expect(FileManager.default.fileExists(atPath: big))
        // Killed, it keeps its .part; the same fetch as a job again continues it, and the file arrives whole.
        // (Killed once its first bytes are written: before that there is no .part to keep.)
        let progress = job.waitForProgress(upTo: 30) { $0.bytesDone > 0 }
        #expect((progress?.bytesDone ?? 0) > 0, "the job wrote nothing in 30 s")
        output.reset()
        #expect(interpreter.run(line: "kill %1") == .success)
        #expect(output.lines.last?.hasPrefix("[1] killed  fetch DJI_0003.MP4") == true)
        let part = try #require(LocalDisk.size(downloads.path + "/DJI_0003.MP4.part"))
        #expect(part > 0 && part < 3_000_000)
        // What it wrote is counted, and said to be kept (issue 41.5: it said 0 B).
        #expect(
            output.lines.last?.contains("; \(HumanReadable.size(part)) in ") == true
                && output.lines.last?.contains("\(HumanReadable.size(part)) of it kept in .part files") == true, "\(output.lines)")
        output.reset()
        #expect(interpreter.run(line: "fetch DJI_0003.MP4 &") == .success)
        #expect(interpreter.run(line: "wait") == .success)
        #expect(output.lines.last?.hasPrefix("[1] done  fetch DJI_0003.MP4  (1 fetched") == true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: downloads.path + "/DJI_0003.MP4")) == Data(contentsOf: URL(fileURLWithPath: big)))
        #expect(interpreter.jobs.jobs.isEmpty)
        #expect(interpreter.prompt == "dir:/DCIM/100MEDIA> ")
    }

    /// A script waits for its jobs at its end; a job that failed makes `wait` and the script fail.
    @Test func waitFailsWhenAJobFailedAndAScriptWaitsForItsJobs() throws {
        let blocked = downloads.path + "/not-a-folder"
        try Data("x".utf8).write(to: URL(fileURLWithPath: blocked))
        #expect(interpreter.runScript("fetch -o \(blocked)/sub DJI_0001.JPG &\nwait\n") == .stopped)
        #expect(output.errors.contains { $0.hasPrefix("[1] fetch: ") })
        output.reset()
        #expect(interpreter.finishScript(interpreter.runScript("fetch DJI_0002.JPG &\n")) == .finished(failed: false))
        #expect(output.lines.last?.hasPrefix("[1] done  fetch DJI_0002.JPG") == true)
        #expect(FileManager.default.fileExists(atPath: downloads.path + "/DJI_0002.JPG"))
    }

    @Test func onlyFetchAndImportRunAsJobs() {
        #expect(interpreter.run(line: "ls &") == .failure)
        #expect(output.errors.last?.contains("only fetch, mirror and import run as jobs") == true)
        #expect(interpreter.run(line: "wait %3") == .failure)
        #expect(interpreter.run(line: "kill %1") == .failure)
    }
}
