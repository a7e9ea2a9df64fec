import Testing

@testable import TerminalKit

@Suite struct OutputTests {
    @Test(arguments: [
        (UInt64(0), "0 B"), (999, "999 B"), (1000, "1.0 kB"), (1234, "1.2 kB"), (1_250_000, "1.3 MB"),
        (12_345_678, "12.3 MB"), (123_456_789, "123 MB"), (999_499_999, "999 MB"), (999_500_000, "1.0 GB"),
        (99_950, "100 kB"), (4_294_967_296, "4.3 GB"), (UInt64.max, "18.4 EB"),
    ])
    func humanSizes(bytes: UInt64, expected: String) {
        #expect(HumanReadable.size(bytes) == expected)
    }

    @Test func negativeSizesAndRatesAndDurations() {
        #expect(HumanReadable.size(Int64(-1500)) == "-1.5 kB")
        #expect(HumanReadable.size(Int64.min) == "-9.2 EB")
        #expect(HumanReadable.rate(bytesPerSecond: 31_400_000) == "31.4 MB/s")
        #expect(HumanReadable.rate(bytesPerSecond: .nan) == "-- B/s")
        #expect(HumanReadable.duration(seconds: 48) == "0:48")
        #expect(HumanReadable.duration(seconds: 3723.4) == "1:02:03")
        #expect(HumanReadable.duration(seconds: .infinity) == "--:--")
        #expect(HumanReadable.duration(seconds: -1) == "--:--")
    }

    @Test func tablesAlignColumns() {
        let table = ColumnTable(
            rows: [["DJI_0001.JPG", "4.2 MB", "2024-05-01"], ["a.mp4", "12 B", "2024-05-02"], ["été.jpg", "1.0 GB"]],
            alignments: [.left, .right, .left])
        #expect(table.lines() == [
            "DJI_0001.JPG  4.2 MB  2024-05-01",
            "a.mp4           12 B  2024-05-02",
            "été.jpg       1.0 GB",
        ])
        #expect(ColumnTable(rows: [["a", "b"]], indent: 2).render() == "  a  b")
        #expect(ColumnTable(rows: []).lines() == [])
    }

    @Test func wideCharactersTakeTwoCells() {
        #expect(TerminalWidth.of("写真.jpg") == 8)
        #expect(TerminalWidth.of("e\u{301}") == 1)
        #expect(ColumnTable(rows: [["写真", "x"], ["ab", "y"]]).lines() == ["写真  x", "ab    y"])
        #expect(TerminalWidth.truncate("写真写真.jpg", to: 6) == "写真…")
        #expect(TerminalWidth.truncate("short", to: 10) == "short")
    }

    @Test func listsFillColumnsDownThenAcross() {
        let names = ["a", "bb", "ccc", "dddd", "e"]
        #expect(ColumnList.lines(names, width: 20) == ["a     ccc   e", "bb    dddd"])
        #expect(ColumnList.lines(names, width: 15) == ["a     dddd", "bb    e", "ccc"])
        #expect(ColumnList.lines(names, width: 80) == ["a     bb    ccc   dddd  e"])
        #expect(ColumnList.lines(names, width: 1) == names)
        #expect(ColumnList.lines([], width: 80) == [])
        for line in ColumnList.lines((1...100).map { "name\($0)" }, width: 40) {
            #expect(TerminalWidth.of(line) <= 40)
        }
    }

    @Test func progressLineFitsTheWidth() {
        let line = ProgressLine.format(
            name: "DJI_0001.MP4", done: 1_200_000_000, total: 2_700_000_000, bytesPerSecond: 31_400_000, width: 80)
        #expect(line.hasPrefix("DJI_0001.MP4 "))
        #expect(line.hasSuffix(" 44%  1.2 GB of 2.7 GB  31.4 MB/s  ETA 0:48"))
        #expect(TerminalWidth.of(line) == 80)

        let narrow = ProgressLine.format(
            name: "a-very-long-name-from-the-card.MP4", done: 5, total: 10, bytesPerSecond: nil, width: 50)
        #expect(TerminalWidth.of(narrow) == 50)
        #expect(narrow.contains("…"))
        #expect(narrow.hasSuffix(" 50%  5 B of 10 B  -- B/s  ETA --:--"))
    }

    @Test func progressLineHandlesOddNumbers() {
        let unknownTotal = ProgressLine.format(name: "x", done: 2000, total: nil, bytesPerSecond: 1000, width: 40)
        #expect(unknownTotal.hasSuffix("2.0 kB  1.0 kB/s"))
        let overrun = ProgressLine.format(name: "x", done: 20, total: 10, bytesPerSecond: 1, width: 60)
        #expect(overrun.contains("100%"))
        #expect(overrun.hasSuffix("ETA 0:00"))
        let empty = ProgressLine.format(name: "x", done: 0, total: 0, bytesPerSecond: 0, width: 60)
        #expect(empty.contains("100%"))
        #expect(ProgressLine.format(name: "x", done: 1, total: 2, bytesPerSecond: 1, width: 5).count <= 5)
        #expect(ProgressLine.format(name: "\u{1B}[2J", done: 1, total: 2, bytesPerSecond: 1, width: 80).contains("\\x1b[2J"))
    }

    @Test func progressMeterRedrawsInPlaceOnATerminal() {
        var output: [String] = []
        let meter = ProgressMeter(name: "a.mp4", total: 1000, isTerminal: true, width: { 60 }) { output.append($0) }
        meter.update(done: 0, at: 0)
        meter.update(done: 100, at: 0.05)  // too soon: not drawn
        meter.update(done: 500, at: 1)
        meter.finish(done: 1000, at: 2)
        #expect(output.count == 4)
        #expect(output.dropLast().allSatisfy { $0.hasPrefix("\r") && $0.hasSuffix("\u{1B}[K") })
        #expect(output[1].contains(" 50%"))
        #expect(output[1].contains("500 B/s"))
        #expect(output[2].contains("100%"))
        #expect(output[3] == "\n")
        #expect(meter.bytesPerSecond(at: 2) == 500)
    }

    @Test func progressMeterIsSilentInBatchMode() {
        var output: [String] = []
        let meter = ProgressMeter(name: "a.mp4", total: 1000, isTerminal: false, width: { 60 }) { output.append($0) }
        meter.update(done: 500, at: 1)
        meter.finish(done: 1000, at: 2)
        #expect(output.isEmpty)
    }

    @Test func unsafeTextIsMadeVisible() {
        #expect(SafeText.display("plain é 写真") == "plain é 写真")
        #expect(SafeText.display("a\u{1B}[2Jb\u{7F}\u{9B}") == "a\\x1b[2Jb\\x7f\\u{9B}")
        #expect(SafeText.display("evil\u{202E}gpj.exe") == "evil\\u{202E}gpj.exe")
        #expect(SafeText.display("tab\tnewline\n") == "tab\\x09newline\\x0a")
    }

    @Test func columnMarkerPointsUnderTheColumn() {
        #expect(ColumnMarker.lines(for: #"fetch "abc"#, column: 7) == [#"fetch "abc"#, "      ^"])
        #expect(ColumnMarker.lines(for: "写真 'x", column: 4) == ["写真 'x", "     ^"])
        #expect(ColumnMarker.lines(for: "a\u{1B}b c", column: 5) == ["a\\x1bb c", "       ^"])
        #expect(ColumnMarker.lines(for: "ab", column: 99) == ["ab", "  ^"])
    }
}
