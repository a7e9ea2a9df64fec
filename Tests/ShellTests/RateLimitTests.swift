import Foundation
import MediaManager
import POSIX
import TestSupport
import Testing
import Transfers

@testable import Shell
@testable import TerminalKit

/// `set limit-rate` holds a batch as a whole to the rate, in the foreground and as a job; the rate shown is
/// bytes over a window of real time (never one chunk's speed), and the line shows the bytes already there,
/// the rate and the time left from the first bytes on. Time is a manual clock that moves only when the
/// limit pauses, so the bounds hold whatever the machine's load; the binary's run is measured against the
/// wall clock with a lower bound, which load cannot break.
@Suite(.tags(.process), .notInFastRun) struct RateLimitTests {
    let card: TemporaryFolder
    let downloads: TemporaryFolder

    init() throws {
        card = try makeCardFolder()
        downloads = try TemporaryFolder("msh-limit")
    }

    /// Five files, 59 kB.
    static let names = ["DJI_0001.JPG", "DJI_0002.JPG", "My Clip 1.MP4", "My Clip 2.MP4", "Birthday Party.MP4"]
    static let bytes = 20_000 + 21_000 + 5_000 + 6_000 + 7_000
    static let quoted = names.map { "'\($0)'" }.joined(separator: " ")

    private func interpreter(clock: ManualWaitClock) throws -> (Interpreter, CapturedOutput) {
        let (shell, output, _) = makeInterpreter()
        shell.transferClock = clock
        output.showsProgress = true
        output.columns = 100
        try shell.open(.folder(path: card.path))
        #expect(shell.run(line: "cd DCIM/100MEDIA; set limit-rate 10k") == .success)
        return (shell, output)
    }

    /// The rates a batch's progress lines showed, and whether every line with bytes had a rate and an ETA.
    private func drawnRates(_ progress: String) -> (rates: [Double], blind: [String]) {
        var rates: [Double] = []
        var blind: [String] = []
        for line in progress.components(separatedBy: "\r").map(strippingEscapes) where line.contains(" files  ") {
            let figures = line.components(separatedBy: "  ")
            guard figures.count >= 4 else { continue }
            let bytes = figures[1].components(separatedBy: " of ")[0]
            if let rate = figures.first(where: { $0.hasSuffix("B/s") }), let value = Self.bytesPerSecond(rate) {
                rates.append(value)
            } else if bytes != "0 B" {
                blind.append(line)
            }
            if bytes != "0 B" && line.contains("ETA --:--") { blind.append(line) }
        }
        return (rates, blind)
    }

    static func bytesPerSecond(_ text: String) -> Double? {
        let parts = text.dropLast(2).split(separator: " ")
        guard parts.count == 2, let number = Double(parts[0]) else { return nil }
        let scale: [Substring: Double] = ["B": 1, "kB": 1e3, "MB": 1e6, "GB": 1e9]
        return scale[parts[1]].map { number * $0 }
    }

    @Test func aForegroundBatchKeepsToTheLimitAndShowsItsRateFromTheFirstBytes() throws {
        let clock = ManualWaitClock()
        let (shell, output) = try interpreter(clock: clock)
        let start = clock.now()
        #expect(shell.run(line: "fetch -o \(downloads.path) \(Self.quoted)") == .success, "\(output.errors)")
        let elapsed = clock.now() - start
        #expect(elapsed >= Double(Self.bytes) / 10_000 * 0.97, "59 kB at 10 kB/s took \(elapsed) s")
        let (rates, blind) = drawnRates(output.progressText)
        #expect(rates.count >= 10, "the line was redrawn while the limit held it: \(rates.count) lines")
        #expect(rates.allSatisfy { $0 <= 10_000 * 1.15 }, "rates above the limit: \(rates.filter { $0 > 11_500 })")
        #expect(blind.isEmpty, "lines with bytes but no rate or time left: \(blind)")
        #expect(output.lines.last?.contains("(10.0 kB/s)") == true || output.lines.last?.contains("(9.9") == true,
            "\(output.lines.last ?? "")")
    }

    @Test func aBackgroundBatchKeepsToTheLimitToo() throws {
        let clock = ManualWaitClock()
        let (shell, output) = try interpreter(clock: clock)
        let start = clock.now()
        #expect(shell.run(line: "fetch -o \(downloads.path) \(Self.quoted) &") == .success, "\(output.errors)")
        let job = try #require(shell.jobs.running.first)
        #expect(shell.run(line: "wait") == .success, "\(output.errors)")
        let elapsed = clock.now() - start
        #expect(elapsed >= Double(Self.bytes) / 10_000 * 0.97, "59 kB at 10 kB/s took \(elapsed) s")
        let rate = job.progress.bytesPerSecond
        #expect(rate > 0 && rate <= 10_000 * 1.15, "the job's rate: \(rate)")
        #expect(output.lines.last?.contains(" in 5.") == true, "\(output.lines)")
    }

    /// The rate of files read ahead: each file's bytes arrive at once, after the pause the limit made, and
    /// the rate is the batch's over the window, not the last chunk's.
    @Test func aBurstMovesTheRateByItsShareOfTheWindow() {
        var rate = TransferRate(window: 5, startingAt: 100)
        #expect(rate.bytesPerSecond(at: 100) == nil)
        rate.record(64_000, at: 100.001)
        #expect(rate.bytesPerSecond(at: 100.001) == 64_000, "the first chunk, over at least a second: a rate at once")
        #expect(rate.bytesPerSecond(at: 104) == 16_000, "64 kB over the 4 s since the start")
        #expect(rate.bytesPerSecond(at: 106.5) == 0, "nothing came in the last 5 s")
        for second in 1...20 { rate.record(UInt64(64_000 + second * 10_000), at: 106.5 + Double(second)) }
        #expect(rate.bytesPerSecond(at: 126.5) == 10_000)
        rate.record(264_000 + 64_000, at: 126.501)
        let after = rate.bytesPerSecond(at: 126.501) ?? 0
        #expect(after > 10_000 && after < 10_000 + 64_000 / 5 + 100, "a 64 kB burst adds its share: \(after)")
    }
}

extension RateLimitTests {
    /// The built binary: `fetch ... &` with a limit takes at least the bytes over the limit of wall time,
    /// and its summary says a rate within the limit.
    @Test(.enabled(if: ShellBinary.exists, "needs the built mediashell binary"))
    func theBinarysBackgroundBatchTakesAtLeastItsBytesOverTheLimit() throws {
        let started = monotonicSeconds()
        let result = try ShellBinary.run(
            ["--camera", "dir:\(card.path)", "-c", "set limit-rate 40k; cd DCIM/100MEDIA; fetch -o \(downloads.path) \(Self.quoted) &; wait"],
            environment: ["HOME": downloads.path])
        let elapsed = monotonicSeconds() - started
        #expect(result.status == 0, "\(result.standardError)")
        #expect(elapsed >= Double(Self.bytes) / 40_000, "59 kB at 40 kB/s in \(elapsed) s")
        let rate = result.standardOutput.firstMatch(of: /\(([0-9.]+ [kM]?B)\/s\)/).map { String($0.1) + "/s" }
        let value = rate.flatMap { Self.bytesPerSecond($0) } ?? .infinity
        #expect(value <= 40_000 * 1.02, "\(result.standardOutput)")
    }
}
