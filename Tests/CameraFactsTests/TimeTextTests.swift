import CameraFacts
import Testing

@Suite("Time text")
struct TimeTextTests {
    @Test func formats() {
        #expect(TimeText.format(0) == "0:00.0")
        #expect(TimeText.format(2.44) == "0:02.4")
        #expect(TimeText.format(59.96) == "1:00.0")
        #expect(TimeText.format(754.25) == "12:34.3")
        #expect(TimeText.format(3723.4) == "1:02:03.4")
        #expect(TimeText.format(-1.5) == "-0:01.5")
        #expect(TimeText.format(44.6, tenths: false) == "0:45")
        #expect(TimeText.format(2.999, tenths: false) == "0:03")
        #expect(TimeText.format(.infinity) == "?")
        #expect(TimeText.frameTime(25.48) == "0:25.48")
        #expect(TimeText.frameTime(1.0 / 30) == "0:00.03")
        #expect(TimeText.frameTime(59.996) == "1:00.00")
        #expect(TimeText.frameTime(3600.05) == "1:00:00.05")
    }
}
