import Foundation
import MediaManager
import TestSupport
import Testing

@testable import Shell

/// `status` on a drone clip with an `.SRT` (issue 42) shows the telemetry of the frame shown: the demo card's
/// DJI_0003.MP4 has a cue every 33 ms climbing 0.033 m each (see DemoMedia/landscape_telemetry.srt).
@Suite struct StatusTelemetryTests {
    @Test func theFrameShownHasItsCue() throws {
        let (interpreter, output, _) = makeInterpreter()
        try interpreter.open(.simulator(path: nil))
        #expect(interpreter.run(line: "cd DCIM/100MEDIA; set player none; play DJI_0003.MP4; pause; seek 1.5") == .success)
        output.reset()
        #expect(interpreter.run(line: "status") == .success)
        // 1.5 s is in cue 46 (1.485 to 1.518 s): 30 + 45 x 0.033 m above take-off.
        #expect(output.lines.last == "telemetry: 46.519788° N, 6.632498° E  31.485 m above take-off, 403.485 m above sea level  ISO 100  1/640.0 s  f/1.7  EV 0", "\(output.lines)")
        output.reset()
        #expect(interpreter.run(line: "status --json") == .success)
        let json = try #require(try JSONSerialization.jsonObject(with: Data((output.lines.last ?? "").utf8)) as? [String: Any])
        let telemetry = try #require(json["telemetry"] as? [String: Any], "\(json)")
        #expect(telemetry["relative"] as? Double == 31.485 && telemetry["iso"] as? Double == 100, "\(telemetry)")
        #expect((telemetry["point"] as? [String: Any])?["latitude"] as? Double == 46.519788)
        output.reset()
        #expect(interpreter.run(line: "play DJI_0006.MOV; pause; status") == .success)
        #expect(!output.lines.contains { $0.hasPrefix("telemetry:") }, "a clip without an .SRT has none")
    }
}
