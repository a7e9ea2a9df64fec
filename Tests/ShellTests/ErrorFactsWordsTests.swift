import Foundation
import MediaFormats
import POSIX
import PTP
import Testing

@testable import Playback
@testable import Shell
import Words

/// Lower layers hand the shell facts (which structure, what was expected and what came); these are the
/// sentences a user reads for them. Only ShellTests read error text.
@Suite struct ErrorFactsWordsTests {
    @Test func malformedDataNamesTheStructureAndWhere() {
        #expect(ErrorWords.sentence(for: PTPError.malformed(Malformation("DeviceInfo", .truncated(field: "u32", offset: 2, total: 5))))
            == "malformed data from device: DeviceInfo truncated u32 at byte 2 of 5")
        let overrun = Malformation("PTP/IP data phase", .overrun(sent: 20, announced: 10), operation: .getObject, peer: "127.0.0.1:15740")
        #expect(ErrorWords.sentence(for: PTPError.malformed(overrun))
            == "malformed data from device: GetObject: 127.0.0.1:15740: PTP/IP data phase (sent 20 bytes after announcing 10)")
    }

    @Test func aBrokenSequenceNamesTheOperationThePeerAndTheNumbers() {
        let violation = ProtocolViolation(
            .wrongTransaction(packet: "a response", found: 5, expected: 0), operation: .getObject, peer: "127.0.0.1:15740")
        #expect(ErrorWords.sentence(for: PTPError.protocolViolation(violation))
            == "protocol error: GetObject: 127.0.0.1:15740 answered transaction 5, expected 0")
        let short = ProtocolViolation(.dataPhaseEnded(received: 5000, expected: 100_000), operation: .getObject, peer: "usb:001,004")
        #expect(ErrorWords.sentence(for: PTPError.protocolViolation(short))
            == "protocol error: GetObject: usb:001,004 ended the data phase after 5000 of 100000 bytes")
    }

    @Test func anEditAtAnotherRateSaysWhatTheRateMeans() {
        for (rate, words) in [
            (Int32(0x8000), "at rate 0.5 (slow motion)"), (0, "at rate 0 (a held frame)"), (0x2_0000, "at rate 2 (fast motion)"),
        ] {
            let error = PlaybackError(.unsupported, name: "SLOWMO.MP4", cause: MediaFormatError(.editRate(track: "track 1", rate: rate)))
            #expect(ErrorWords.sentence(for: error)
                == "SLOWMO.MP4: track 1 has an edit \(words): only rate 1 (normal speed) is supported")
        }
    }

    @Test func aMediaFileThatCannotBeOpenedIsALocalFailure() {
        let error = MediaFormatError(.system(SystemError(.open, path: "/nonexistent/DJI_0001.JPG", errno: ENOENT)))
        #expect(ErrorWords.sentence(for: error)
            == LocalFailureWords.sentence(for: SystemError(.open, path: "/nonexistent/DJI_0001.JPG", errno: ENOENT)))
        #expect(ErrorWords.sentence(for: MediaFormatError(.endsInside("the 'moov' box"), offset: 1234))
            == "the file ends inside the 'moov' box (at byte 1234)")
    }
}
