import Foundation
import MediaManager
import PTP
import TestSupport
import Testing
@testable import Shell
import TerminalKit
import Words

/// A listing never waits on reading every file's header: `ls -l` reads the capture times of at most
/// `CaptureTimes.filesPerListing` files (one request each) and shows the camera's date for the rest,
/// marked `~` (`datePending` in JSON); the next listing reads on; `find --since` reads what it needs.
@Suite struct CaptureTimeListingTests {
    @Test func aListingReadsWithinItsBudgetAndMarksTheRest() throws {
        let count = 80
        let card = try RoundTripBudgetTests.card(photos: count)  // the demo photo: EXIF 2024:05:01 10:12:03
        let listed = Date(timeIntervalSince1970: 1_600_000_000)  // the card's own date: 2020-09-13
        for number in 1...count {
            try FileManager.default.setAttributes(
                [.modificationDate: listed], ofItemAtPath: card.path + String(format: "/DCIM/100TEST/IMG_%05d.JPG", number))
        }
        let camera = try RoundTripBudgetTests.CountedCamera(folder: card.path)
        defer { camera.session.close() }
        let (shell, output, _) = makeInterpreter()
        shell.attach(camera.session)
        try camera.session.catalog.ensureLoaded()
        camera.log.reset()

        #expect(shell.run(line: "ls -l DCIM/100TEST") == .success, "\(output.errors)")
        let reads: Set<OperationCode> = [.getObject, .getPartialObject, .getPartialObject64]
        let budget = MediaManager.CaptureTimes.filesPerListing
        #expect(camera.log.codes.filter(reads.contains).count == budget, "\(camera.log.codes)")
        let lines = output.lines.filter { $0.contains("IMG_") }
        #expect(lines.filter { $0.hasPrefix("2024-05-01 10:12 ") }.count == budget, "\(lines)")
        #expect(lines.filter { $0.hasPrefix("~2020-09-13 ") }.count == count - budget, "\(lines)")

        // The JSON says the same: the pending ones are the camera's date, and say so.
        output.reset()
        camera.log.reset()
        #expect(shell.run(line: "ls --json DCIM/100TEST") == .success)
        let objects = try #require(try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [[String: Any]])
        let pending = objects.filter { $0["datePending"] as? Bool == true }
        #expect(pending.count == count - 2 * budget)
        #expect(pending.allSatisfy { $0["dateSource"] as? String == "camera" })
        #expect(objects.filter { $0["dateSource"] as? String == "EXIF" }.count == 2 * budget)

        // find --since reads the rest (one request each), and keeps them all: they were shot on May 1.
        output.reset()
        camera.log.reset()
        #expect(shell.run(line: "find --since 2024-05-01 --until 2024-05-01 DCIM") == .success)
        #expect(output.lines.count == count, "\(output.lines)")
        #expect(camera.log.codes.filter(reads.contains).count == count - 2 * budget)
        // Known now: a listing reads nothing and marks nothing.
        output.reset()
        camera.log.reset()
        #expect(shell.run(line: "ls -l DCIM/100TEST") == .success)
        #expect(camera.log.codes.filter(reads.contains).isEmpty)
        #expect(!output.lines.contains { $0.hasPrefix("~") })
    }

    /// The `~` is explained (issue 48, item 6b): under the first long listing of a session that shows it, on a
    /// terminal, one line; not again, and never in a script's data.
    @Test func theMarkIsExplainedOnceOnATerminal() throws {
        let count = 120
        let card = try RoundTripBudgetTests.card(photos: count)
        let camera = try RoundTripBudgetTests.CountedCamera(folder: card.path)
        defer { camera.session.close() }
        let (shell, output, _) = makeInterpreter()
        output.columns = 100
        shell.attach(camera.session)

        #expect(shell.run(line: "ls -l DCIM/100TEST") == .success, "\(output.errors)")
        let legend = output.lines.filter { $0.hasPrefix("~ before a date") }
        #expect(legend == [DateText.pendingLegend], "\(output.lines.suffix(3))")
        #expect(output.lines.last == DateText.pendingLegend, "said under the listing")
        #expect(output.lines.contains { $0.hasPrefix("~") && $0.hasSuffix(".JPG") }, "the mark was shown")
        // Still marked the second time (120 files, 32 read a listing): not said again.
        output.reset()
        #expect(shell.run(line: "ls -l DCIM/100TEST") == .success)
        #expect(output.lines.contains { $0.hasPrefix("~") && $0.hasSuffix(".JPG") })
        #expect(!output.lines.contains { $0.hasPrefix("~ before a date") })

        // In a pipe the listing is data only.
        let (piped, pipedOutput, _) = makeInterpreter()
        piped.attach(camera.session)
        #expect(piped.run(line: "find -l DCIM") == .success)
        #expect(pipedOutput.lines.contains { $0.hasPrefix("~") })
        #expect(!pipedOutput.lines.contains { $0.hasPrefix("~ before a date") })
    }
}
