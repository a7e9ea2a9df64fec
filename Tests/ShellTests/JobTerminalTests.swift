import Foundation
import TestSupport
import Testing
import VirtualCamera

/// Issue 14's "done when": at a real prompt (expect drives a pty) over `serve` on a loopback port chosen at
/// run time, `import ... &` runs while `ls`, `info`, `thumb`, `play` and `seek` each answer, every answer
/// followed by a prompt that still shows the job running (so it came while the job ran, whatever the
/// machine's speed: the rate limit holds the job after its first chunk). Killed, the job keeps its `.part`;
/// the same import as a job again finishes it, and the file is byte-identical. `scripts/bench --only jobs`
/// does the same with a 1 GB card and measures the latencies.
@Suite(.enabled(if: ShellBinary.exists && FileManager.default.isExecutableFile(atPath: Expect.path), "needs mediashell and expect"), .tags(.process, .port), .notInFastRun)
struct JobTerminalTests {
    let home: TemporaryFolder
    let card: TemporaryFolder

    init() throws {
        home = try TemporaryFolder("msh-jobs-pty")
        card = try TemporaryFolder("msh-jobs-card")
        try card.write("DCIM/100MEDIA/BIG_0001.MP4", patternBytes(4_000_000, seed: 41))
        for name in ["landscape_faststart.mp4", "landscape_faststart.thumb.jpg", "photo_landscape.jpg"] {
            let demo = try #require(DemoMedia.file(name))
            try FileManager.default.copyItem(atPath: demo, toPath: card.path + "/DCIM/100MEDIA/" + name)
        }
    }

    @Test func everyCommandAnswersWhileAnImportRunsAndTheImportArrivesWhole() throws {
        let home = home.path
        let running = #"\[1 job\]> $"#
        let result = try Expect.run(
            """
            spawn -noecho {\(ShellBinary.path)} serve --listen 127.0.0.1:0 {\(card.path)}
            set serve $spawn_id
            expect {
                -re {ptpip:127\\.0\\.0\\.1:([0-9]+)} { set port $expect_out(1,string) }
                timeout { puts "serve did not start"; exit 90 }
            }
            spawn -noecho env TERM=xterm LANG=C.UTF-8 HOME=\(home) XDG_STATE_HOME=\(home)/state XDG_CONFIG_HOME=\(home)/config XDG_DATA_HOME=\(home)/data {\(ShellBinary.path)} --camera ptpip:127.0.0.1:$port
            must {> $} 2
            send "set player none; set images off; set prompt '%j> '; cd DCIM/100MEDIA; set limit-rate 1k\\r"
            must {> $} 3
            send "import --to \(home)/in/%f BIG_0001.MP4 &\\r"
            must {\\[1\\] import} 4
            must {\(running)} 5
            send "set limit-rate off; ls\\r"
            must {photo_landscape\\.jpg} 6
            must {\(running)} 7
            send "info photo_landscape.jpg\\r"
            must {dimensions: +1280x720} 8
            must {\(running)} 9
            send "thumb photo_landscape.jpg\\r"
            must {thumbnail 160x120} 10
            must {\(running)} 11
            send "play landscape_faststart.mp4\\r"
            must {playing landscape_faststart\\.mp4} 12
            must {\(running)} 13
            send "seek 1\\r"
            must {frame 30 of 90 at 0:01\\.00, keyframe #1} 14
            must {\(running)} 15
            send "jobs\\r"
            must {\\[1\\] running  import} 16
            must {\(running)} 17
            send "kill %1\\r"
            must {\\[1\\] killed  import} 18
            must {\\r\\n> $} 19
            send "import --to \(home)/in/%f BIG_0001.MP4 &\\r"
            must {\\[1\\] import} 20
            send "wait\\r"
            must {\\[1\\] done  import[^\\r]*1 fetched} 21
            must {> $} 22
            send "quit\\r"
            expect eof
            exec kill -INT [exp_pid -i $serve]
            exit 0
            """)
        #expect(result.status == 0, "expect failed: \(result.standardOutput)")
        let arrived = try Data(contentsOf: URL(fileURLWithPath: home + "/in/BIG_0001.MP4"))
        #expect(arrived == Data(patternBytes(4_000_000, seed: 41)))
        #expect(!FileManager.default.fileExists(atPath: home + "/in/BIG_0001.MP4.part"))
    }
}
