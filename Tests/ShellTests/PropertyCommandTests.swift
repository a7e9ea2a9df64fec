import Foundation
import PTP
import Testing

@testable import Shell

/// `props`, `prop` and `sync-time` on the built-in virtual camera.
@Suite struct PropertyCommandTests {
    let interpreter: Interpreter
    let output: CapturedOutput

    init() {
        (interpreter, output, _) = makeInterpreter()
    }

    @Test func propsListsDecodedValuesAndWhatIsAllowed() {
        #expect(interpreter.run(line: "open sim:; props") == .success, "\(output.errors)")
        let table = output.lines.joined(separator: "\n")
        for expected in [
            "battery       87%", "ro  0%..100%", "whitebalance  auto", "auto, daylight, fluorescent",
            "exposuretime  1/250", "1/1000, 1/500", "fnumber       f/5.6", "iso           100", "capturemode   normal",
        ] {
            #expect(table.contains(expected), "\(expected) missing in\n\(table)")
        }
    }

    @Test func propSetsCheckedValuesAndCaptureDrainsTheBattery() {
        #expect(interpreter.run(line: "open sim:; prop whitebalance Daylight; prop exposuretime 1/1000; prop 0x500f 400") == .success, "\(output.errors)")
        #expect(output.lines.suffix(3) == ["whitebalance daylight", "exposuretime 1/1000", "iso 400"])
        #expect(interpreter.run(line: "prop iso 401") == .failure)
        #expect(output.errors.last?.contains("401 is not allowed for iso") == true, "\(output.errors)")
        #expect(interpreter.run(line: "prop battery 10") == .failure)
        #expect(interpreter.run(line: "prop shutter") == .failure)
        #expect(output.errors.last?.contains("no such property on this camera") == true)
        #expect(interpreter.run(line: "capture; capture; prop battery") == .success, "\(output.errors)")
        #expect(output.lines.last == "battery 85%")
        #expect(interpreter.run(line: "prop --json iso") == .success)
        #expect(output.lines.last?.contains(#""name":"iso","raw":400,"value":"400","writable":true"#) == true, "\(output.lines)")
    }

    @Test func syncTimeSetsTheClock() {
        #expect(interpreter.run(line: "open sim:; prop datetime 2001-02-03 04:05:06; sync-time") == .success, "\(output.errors)")
        #expect(output.lines.contains("datetime 2001-02-03 04:05:06"))
        let year = String(Calendar.current.component(.year, from: Date()))
        #expect(output.lines.last?.hasPrefix("datetime \(year)-") == true, "\(output.lines)")
        #expect(output.lines.last?.contains("(was 2001-02-03 04:05:") == true, "\(output.lines)")
    }

    @Test func descriptionsRoundTripAndCheckTheirForm() throws {
        let range = DevicePropertyDescription(
            code: .batteryLevel, dataType: .uint8, writable: false, factoryDefault: .uint8(100), current: .uint8(50),
            form: .range(minimum: .uint8(0), maximum: .uint8(100), step: .uint8(5)))
        #expect(try DevicePropertyDescription(decoding: range.encoded()) == range)
        #expect(range.allows(.uint8(55)) && !range.allows(.uint8(56)) && !range.allows(.uint16(55)))
        #expect(throws: PTPError.self) { try DevicePropertyDescription(decoding: Array(range.encoded().dropLast())) }
    }
}
