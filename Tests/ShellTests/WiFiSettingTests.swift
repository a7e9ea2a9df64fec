import Foundation
import Shell
import TestSupport
import Testing

/// `set ptpip-guid` (and `--ptpip-guid`): the GUID given to Wi-Fi cameras instead of this computer's own.
@Suite(.tags(.process), .notInFastRun)
struct WiFiSettingTests {
    @Test func aGUIDIsTakenAsHexAndAutoGoesBackToOurOwn() throws {
        var settings = Settings()
        #expect(try settings.value(of: "ptpip-guid") == "auto")
        try settings.set("ptpip-guid", to: "00112233-4455-6677-8899-aabbccddeeff")
        #expect(try settings.value(of: "ptpip-guid") == "00112233445566778899AABBCCDDEEFF")
        #expect(throws: SettingError.invalid("ptpip-guid", "32 hexadecimal digits (dashes allowed), or auto")) {
            try settings.set("ptpip-guid", to: "0011")
        }
        #expect(try settings.value(of: "ptpip-guid") == "00112233445566778899AABBCCDDEEFF", "unchanged by a bad value")
        try settings.set("ptpip-guid", to: "auto")
        #expect(settings.ptpipGUID == nil)
    }

    @Test func theCommandLineTakesItToo() throws {
        let arguments = try ShellArguments(["--ptpip-guid", "00112233445566778899AABBCCDDEEFF", "-c", "summary"])
        #expect(arguments.ptpipGUID == "00112233445566778899AABBCCDDEEFF")
        let bad = try ShellBinary.run(["--ptpip-guid", "nope", "-c", "pwd"])
        #expect(bad.status == 2)
        #expect(bad.errorLines == ["mediashell: --ptpip-guid: ptpip-guid takes 32 hexadecimal digits (dashes allowed), or auto"])
    }
}
