import MediaManager
import TestSupport
import Testing

@testable import Shell
@testable import TerminalKit

/// What is said fits the terminal (issue 48, item 5): a message breaks between words, a line of fields
/// (`status`) between its fields first; `ls -l` has no video column when no video is listed, and says less
/// of each video as the terminal narrows, down to none at 50 columns.
@Suite struct ListingWidthTests {
    @Test func aLineOfFieldsBreaksBetweenFieldsAndKeepsItsGaps() {
        let status = "DJI_0003.MP4 ‖ paused 0:02.0/0:03.0  frame 60/90  30 fps  640x360 landscape  last seek 0:03.3 → keyframe #2 at 0:02.0"
        #expect(WordWrap.lines(status, width: 50) == [
            "DJI_0003.MP4 ‖ paused 0:02.0/0:03.0  frame 60/90", "30 fps  640x360 landscape",
            "last seek 0:03.3 → keyframe #2 at 0:02.0",
        ])
        // A field wider than a line goes on beside what comes before it, its further lines under its start;
        // a plain sentence as before.
        #expect(WordWrap.lines("a b  one two three four", width: 11) == ["a b  one", "     two", "     three", "     four"])
        #expect(WordWrap.lines("can:   list in one request, read ranges (resume, playback), delete", width: 30) == [
            "can:   list in one request,", "       read ranges (resume,", "       playback), delete",
        ])
        // Past the left half, the further lines start at the margin.
        #expect(WordWrap.lines("a long key name:  one two three four five six", width: 24) == [
            "a long key name:  one", "two three four five six",
        ])
        #expect(WordWrap.lines("skipped DJI_0001.JPG: it is already here", width: 24) == [
            "skipped DJI_0001.JPG: it", "is already here",
        ])
        #expect(WordWrap.lines("  indented  text", width: 10) == ["  indented", "text"])
        #expect(WordWrap.lines("fits  as  it is", width: 80) == ["fits  as  it is"])
    }

    @Test func photosAloneHaveNoVideoColumn() throws {
        let card = try makeCardFolder(bigFileSize: 1_000)
        let (interpreter, output, _) = makeInterpreter()
        try interpreter.open(.folder(path: card.path))
        #expect(interpreter.runScript("ls -l DCIM/101MEDIA") == .finished(failed: false))
        #expect(output.lines.count == 2 && output.lines.allSatisfy { $0.contains(" kB  photo  IMG_010") }, "\(output.lines)")
        output.reset()
        #expect(interpreter.runScript("cd /; ls -l") == .finished(failed: false))
        #expect(output.lines.count == 1 && output.lines[0].hasSuffix("  -  folder  DCIM/"), "\(output.lines)")
    }

    @Test(arguments: [
        (200, "0:03 640x360 30 fps"), (80, "0:03 640x360 30 fps"), (66, "0:03 640x360"), (60, "0:03"), (50, nil),
    ])
    func videosSayLessAsTheTerminalNarrows(columns: Int, shown: String?) throws {
        let (interpreter, output, _) = makeInterpreter()
        output.columns = columns
        try interpreter.open(.simulator(path: nil))
        #expect(interpreter.runScript("ls -l DCIM/100MEDIA") == .finished(failed: false))
        let rows = output.lines
        #expect(rows.count == 10 && rows.allSatisfy { TerminalWidth.of($0) <= columns }, "\(rows)")
        let video = try #require(rows.first { $0.hasSuffix("DJI_0003.MP4") })
        if let shown {
            #expect(video.hasSuffix("  video      \(shown)  DJI_0003.MP4"), "\(rows)")
        } else {
            #expect(video.hasSuffix("  video      DJI_0003.MP4"), "\(rows)")
        }
    }
}
