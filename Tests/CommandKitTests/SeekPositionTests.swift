import CommandKit
import Testing


@Suite struct SeekPositionTests {
    @Test(arguments: [
        ("12.5", SeekPosition.absolute(seconds: 12.5)),
        ("0", .absolute(seconds: 0)),
        (".5", .absolute(seconds: 0.5)),
        ("1:02.5", .absolute(seconds: 62.5)),
        ("1:02:03", .absolute(seconds: 3723)),
        ("+5", .relative(seconds: 5)),
        ("-1:30", .relative(seconds: -90)),
        ("50%", .percent(50)),
        ("100%", .percent(100)),
    ])
    func parses(text: String, expected: SeekPosition) {
        #expect(SeekPosition(text) == expected)
    }

    @Test(arguments: ["", "abc", "1:2", "1:60", "101%", "1e3", "--5", "+", "1:02:03:04", "1.2.3", "nan", "inf", "%", "+-1", String(repeating: "9", count: 400)])
    func rejects(text: String) {
        #expect(SeekPosition(text) == nil)
    }
}
