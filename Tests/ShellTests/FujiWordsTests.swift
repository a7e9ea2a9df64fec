import Connectors
import MediaManager
import Testing

@testable import Shell
import Words

/// What a Fujifilm body in the wrong Wi-Fi mode refuses, in the shell's words: the mode to choose, or the
/// URL to open; and what a `ptpip:` open found instead of a PTP/IP camera.
@Suite struct FujiWordsTests {
    @Test func eachRefusalNamesWhatToDo() {
        #expect(ErrorWords.sentence(for: FujiModeError.pcAutoSave).contains("\"Wireless communication\""))
        #expect(ErrorWords.sentence(for: FujiModeError.waitingForAccess(seconds: 30)).contains("allow it on the camera"))
        #expect(ErrorWords.sentence(for: FujiModeError.noRemoteCapture(state: .fullAccess))
            == "the camera's Wi-Fi mode (browsing, no remote control) offers no remote capture (browsing and downloads work; "
            + "capture over Wi-Fi needs a body with remote mode, in \"Wireless communication\" or \"Remote shooting\")")
        let fuji = CameraURL.fuji(host: "192.168.0.1", port: 55740, eventPort: 55741)
        #expect(ErrorWords.sentence(for: CameraOpenError.fujiPortNotPTPIP(host: "192.168.0.1", fujiURL: fuji))
            == "port 55740 is the port of Fujifilm's Wi-Fi protocol, not of PTP/IP: open fuji:192.168.0.1:55740 "
            + "(Fujifilm X bodies speak their own protocol on Wi-Fi)")
        let refused = "connect 192.168.0.1:15740: Connection refused"
        #expect(ErrorWords.sentence(for: CameraOpenError.fujifilmNotPTPIP(host: "192.168.0.1", fujiURL: fuji, cause: refused))
            == "192.168.0.1 answered Fuji's init request on port 55740: it speaks Fujifilm's Wi-Fi protocol, not PTP/IP "
            + "(PTP/IP: \(refused)): open fuji:192.168.0.1:55740 (Fujifilm X bodies speak their own protocol on Wi-Fi)")
        #expect(ErrorWords.sentence(for: CameraOpenError.httpServer(address: "ptpip:192.168.0.1:80", statusLine: "HTTP/1.1 400 Bad Request"))
            == "ptpip:192.168.0.1:80: an HTTP server answered (HTTP/1.1 400 Bad Request), not a PTP/IP camera "
            + "(check the address and the port: PTP/IP cameras listen on 15740)")
        #expect(ErrorWords.sentence(for: CameraOpenError.fujifilmRefused(host: "192.168.0.1", reason: 1)).contains("not \"PC AutoSave\""))
    }
}
