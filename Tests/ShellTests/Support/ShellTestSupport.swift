import Foundation
import MediaManager
import POSIX
import PTP
import TestSupport
import VirtualCamera

@testable import Shell
@testable import TerminalKit

/// Bytes that do not repeat, so that a misplaced chunk shows.
func patternBytes(_ count: Int, seed: UInt64 = 0x9E37_79B9_7F4A_7C15) -> [UInt8] {
    var state = seed
    var bytes = [UInt8](repeating: 0, count: count)
    for index in 0..<count {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        bytes[index] = UInt8(truncatingIfNeeded: state >> 33)
    }
    return bytes
}

/// A card folder like a drone's, with names that need quoting.
func makeCardFolder(bigFileSize: Int = 3_000_000) throws -> TemporaryFolder {
    let card = try TemporaryFolder("msh-card")
    try card.write("DCIM/100MEDIA/DJI_0001.JPG", patternBytes(20_000, seed: 1))
    try card.write("DCIM/100MEDIA/DJI_0002.JPG", patternBytes(21_000, seed: 2))
    try card.write("DCIM/100MEDIA/DJI_0003.MP4", patternBytes(bigFileSize, seed: 3))
    try card.write("DCIM/100MEDIA/DJI_0003.SRT", text: "1\n00:00:00,000 --> 00:00:01,000\nalt 10\n")
    try card.write("DCIM/100MEDIA/My Clip 1.MP4", patternBytes(5_000, seed: 4))
    try card.write("DCIM/100MEDIA/My Clip 2.MP4", patternBytes(6_000, seed: 5))
    try card.write("DCIM/100MEDIA/Birthday Party.MP4", patternBytes(7_000, seed: 6))
    try card.write("DCIM/101MEDIA/IMG_0100.JPG", patternBytes(1_000, seed: 7))
    try card.write("DCIM/101MEDIA/IMG_0101.JPG", patternBytes(1_100, seed: 8))
    return card
}

/// The standard output and error of an interpreter, kept for the test to read.
final class CapturedOutput: ShellOutput {
    var standardOutput = ""
    var errors: [String] = []
    var progressText = ""
    var showsProgress = false

    func write(_ text: String) { standardOutput += text }
    func error(_ line: String) { errors.append(line) }
    var progress: ((String) -> Void)? { showsProgress ? { [weak self] in self?.progressText += $0 } : nil }
    /// The terminal width to report, as if standard output were a terminal; nil for a pipe.
    var columns: Int?

    var terminalColumns: Int? { columns }
    /// The terminal height and cell size in pixels to report (nil: the terminal does not say).
    var rows: Int?
    var cellPixels: (width: Int, height: Int)?
    var terminalRows: Int? { columns == nil ? nil : rows }
    var terminalCellPixels: (width: Int, height: Int)? { columns == nil ? nil : cellPixels }
    func flush() {}

    var lines: [String] { standardOutput.split(separator: "\n").map(String.init) }

    func reset() {
        standardOutput = ""
        errors = []
    }
}

/// Ctrl-C under the test's control: pending when the test says so, or once it was asked `trigger` times
/// since the last clear (a download asks once per chunk, so `trigger: 2` stops after the first chunk).
final class ScriptedInterrupt: InterruptSource, Sendable {
    private struct State {
        var pending = false
        var polls = 0
        var trigger: Int?
    }

    private let state = Locked(State())

    func arm(afterPolls count: Int?) { state.withLock { $0.trigger = count; $0.polls = 0 } }
    func press() { state.withLock { $0.pending = true } }

    var isPending: Bool {
        state.withLock { state in
            state.polls += 1
            if let trigger = state.trigger, state.polls >= trigger { state.pending = true }
            return state.pending
        }
    }

    func clear() { state.withLock { $0.pending = false; $0.polls = 0 } }

    func waitForInterrupt(upTo seconds: Double) -> Bool { isPending }
}

/// A transport that counts the transactions it passes on, and can be cut like a pulled cable.
final class ProbeTransport: InitiatorTransport, Sendable {
    let inner: InitiatorTransport
    private let state = Locked<(count: Int, isCut: Bool)>((0, false))

    init(_ inner: InitiatorTransport) { self.inner = inner }

    var transactions: Int { state.withLock { $0.count } }
    func cut() { state.withLock { $0.isCut = true } }

    func transact(_ command: PTPCommand, dataOut: DataSource?, dataIn: DataSink?) throws -> PTPResponse {
        let cut = state.withLock { state -> Bool in
            state.count += 1
            return state.isCut
        }
        if cut { throw PTPError.connectionClosed(.hungUp(peer: "the cut cable", moment: .during("\(command.code)"))) }
        return try inner.transact(command, dataOut: dataOut, dataIn: dataIn)
    }

    func setEventHandler(_ handler: (@Sendable (PTPEvent) -> Void)?) { inner.setEventHandler(handler) }
    func close() { inner.close() }
}

/// A virtual camera serving `card` in this process, reached through a `ProbeTransport`.
func probedSession(card: Card, url: CameraURL = .simulator(path: nil)) throws -> (MediaSession, ProbeTransport) {
    let camera = VirtualCamera(card: card)
    let (initiator, responder) = InMemoryTransport.makePair(chunkSize: 1 << 20, timeout: 10)
    let thread = Thread { camera.serve(responder, peer: "test") }
    thread.start()
    let probe = ProbeTransport(initiator)
    let device = try Camera(transport: probe, location: url.description) { responder.close() }
    return (MediaSession(camera: device, url: url), probe)
}

/// An interpreter over a captured output and a scripted Ctrl-C.
func makeInterpreter(settings: Settings = Settings()) -> (Interpreter, CapturedOutput, ScriptedInterrupt) {
    let output = CapturedOutput()
    let interrupt = ScriptedInterrupt()
    return (Interpreter(output: output, interrupt: interrupt, settings: settings), output, interrupt)
}

extension Interpreter {
    /// Runs lines as a script called `test` and returns how it ended.
    func runScript(_ text: String, name: String = "test") -> ScriptResult {
        runScript(TextLineSource(text), name: name)
    }
}

/// True for the checksum manifest an import writes at its destination's root (ImportManifest), which the
/// tests of what arrived leave out of their lists.
func isImportManifest(_ relative: String) -> Bool {
    !relative.contains("/") && relative.hasPrefix("mediashell-import-") && relative.hasSuffix(".xxh128")
}
