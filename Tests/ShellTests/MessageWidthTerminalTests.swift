import Foundation
import TestSupport
import Testing

import TerminalKit

/// What commands say at a prompt fits the terminal (issue 48, item 5), in a real pty of 50 and 200 columns
/// (expect): messages that are not errors (`fetched ...; fetch --force replaces it instead`, `seek`'s
/// landing, `status`) break between words, `status` between its fields first, and `ls -l` fits: at 50
/// columns it leaves the video column out rather than letting every row wrap; at 200 it shows it all.
/// The pty's whole output is kept (`log_file`): a line the program wrote wider than the terminal is one
/// the terminal cut wherever its margin fell.
@Suite(.enabled(if: ShellBinary.exists && FileManager.default.isExecutableFile(atPath: Expect.path),
    "needs the built mediashell binary and expect"), .tags(.process), .notInFastRun)
struct MessageWidthTerminalTests {
    @Test(arguments: [50, 200])
    func messagesBreakBetweenWordsAndLongListingsFit(columns: Int) throws {
        let home = try TemporaryFolder("msh-pty-width")
        // A different file where DJI_0001.JPG would go: the fetch keeps both and says how to replace it.
        try home.write("down/DJI_0001.JPG", patternBytes(10, seed: 9))
        let log = home.path + "/transcript"
        let result = try Expect.run(
            """
            log_file -a -noappend {\(log)}
            spawn -noecho sh -c "stty cols \(columns) rows 40; exec env TERM=xterm LANG=C.UTF-8 \
            HOME='\(home.path)' XDG_STATE_HOME='\(home.path)/state' '\(ShellBinary.path)' --camera sim: \
            --download-dir '\(home.path)/down'"
            must {sim:/> $} 2
            send "set prompt '> '; cd DCIM/100MEDIA\\r"
            must {\\r\\n> $} 3
            send "ls -l\\r"
            must {DJI_0006\\.MOV\\r\\n> $} 4
            send "fetch DJI_0001.JPG\\r"
            must {instead\\)\\r\\n> $} 5
            send "play DJI_0003.MP4\\r"
            must {\\r\\n> $} 6
            send "pause\\r"
            must {\\r\\n> $} 7
            send "seek --key 3.3\\r"
            must {60\\)\\r\\n> $} 8
            send "status\\r"
            must {at 0:02\\.00\\r\\ntelemetry:[^>]*\\r\\n> $} 9
            send "\\004"
            expect eof
            exit 0
            """)
        #expect(result.status == 0, "expect failed: \(result.standardOutput)")

        let lines = try Expect.transcriptLines(at: log)
        let wide = lines.filter { TerminalWidth.of($0) > columns }
        #expect(wide.isEmpty, "lines wider than the terminal: \(wide)")

        // Each message is whole again when its lines are joined: broken between words, nothing lost.
        let joined = lines.joined(separator: " ").replacing(/\ +/, with: " ")
        #expect(joined.contains("a different file has its name here, fetch --force replaces it instead)"), "\(lines)")
        #expect(joined.contains("clamped to 0:03.00; landed on keyframe #2 at 0:02.00 (frame 60)"), "\(lines)")
        #expect(joined.contains("frame 60/90 at 0:02.00, keyframe #2 30 fps 640x360 landscape last seek 0:03.30 → keyframe #2 at 0:02.00"), "\(lines)")

        let rows = lines.filter { $0.hasPrefix("2024-05-01 ") }
        #expect(rows.count == 10, "\(lines)")
        let status = lines.drop { !$0.hasPrefix("DJI_0003.MP4 ‖ paused") }.prefix { !$0.hasPrefix(">") && !$0.hasPrefix("telemetry:") }
        #expect(joined.contains("telemetry: 46.519"), "the .SRT's line follows, broken between words too")
        if columns == 50 {
            // The video column goes; photo rows are not padded for it.
            #expect(rows.allSatisfy { !$0.contains("fps") }, "\(rows)")
            #expect(rows.contains("2024-05-01 10:12  79.4 kB  photo      DJI_0001.JPG"), "\(rows)")
            // status breaks between its fields, each whole on a line.
            #expect(Array(status) == [
                "DJI_0003.MP4 ‖ paused 0:02.0/0:03.0", "frame 60/90 at 0:02.00, keyframe #2  30 fps", "640x360 landscape",
                "last seek 0:03.30 → keyframe #2 at 0:02.00",
            ])
        } else {
            #expect(rows.contains { $0.hasPrefix("2024-05-01 10:12   118 kB  video      0:03 640x360 30 fps  DJI_0003.MP4") }, "\(rows)")
            #expect(status.count == 1, "\(Array(status))")
        }
    }
}
