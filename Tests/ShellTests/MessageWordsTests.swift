import Foundation
import MediaManager
import POSIX
import TestSupport
import Testing

@testable import Shell

/// Messages that say what is so: a read-only destination is read-only (not "too little room"), an offset
/// with no `.part` says there is none and where it looked, an interrupted fetch says where its `.part` is
/// kept when that is not the local folder, and `serve` on a port in use names `--listen`.
@Suite(.tags(.process, .port), .notInFastRun) struct MessageWordsTests {
    let card: TemporaryFolder
    let downloads: TemporaryFolder
    let interpreter: Interpreter
    let output: CapturedOutput
    let interrupt: ScriptedInterrupt

    init() throws {
        card = try makeCardFolder()
        downloads = try TemporaryFolder("msh-words")
        var settings = Settings()
        settings.downloadFolder = downloads.path
        (interpreter, output, interrupt) = makeInterpreter(settings: settings)
        interpreter.environment["XDG_DATA_HOME"] = downloads.path + "/data"
        try interpreter.open(.folder(path: card.path))
        #expect(interpreter.run(line: "cd DCIM/100MEDIA") == .success)
    }

    @Test(.enabled(if: access("/proc/sys", W_OK) != 0, "needs a read-only /proc/sys"))
    func aReadOnlyDestinationIsSaidToBeReadOnly() {
        #expect(interpreter.run(line: "import --to /proc/sys/msh-import/%f DJI_0001.JPG") == .failure)
        #expect(output.errors.last?.hasPrefix("error: import: cannot write to /proc/sys: ") == true, "\(output.errors)")
        #expect(output.errors.last?.contains("space") == false)
    }

    @Test func anOffsetWithoutAPartSaysThereIsNone() {
        #expect(interpreter.run(line: "select DJI_0003.MP4; offset 10000") == .failure)
        #expect(output.errors.last == "error: offset: DJI_0003.MP4 has no .part in \(downloads.path): a fetch starts from 0, "
            + "and the offset can only go back over what a .part holds")
        #expect(interpreter.run(line: "offset 0") == .success)
    }

    @Test func anInterruptedFetchSaysWhereItsPartIsKept() {
        #expect(interpreter.run(line: "set limit-rate 1M") == .success)
        interrupt.arm(afterPolls: 4)
        #expect(interpreter.run(line: "fetch DJI_0003.MP4") == .interrupted)
        let notice = output.errors.last ?? ""
        #expect(notice.contains("DJI_0003.MP4.part is kept in \(downloads.path) and 'fetch' continues it"), "\(output.errors)")
    }

    @Test(.enabled(if: ShellBinary.exists, "needs the built mediashell binary"))
    func serveOnAPortInUseNamesListen() throws {
        let taken = try Socket.listen(host: "127.0.0.1", port: 0)
        defer { taken.close() }
        let result = try ShellBinary.run(["serve", "--listen", "127.0.0.1:\(taken.localPort)"], timeout: 20)
        #expect(result.status == 1)
        #expect(result.standardError.contains("--listen 127.0.0.1:0 any free one"), "\(result.standardError)")
    }
}
