import Foundation
import MediaManager
import TestSupport
import Testing

@testable import Shell

/// `sim:PATH` serves someone's folder, so it changes nothing in it unless asked (`--writable`, `set writable
/// on`), as `serve DIR` does; a refusal says how to ask. `dir:` (the user's own card) and the demo card
/// (`sim:`, in memory) delete as before; `summary` says which rule applies (issue 41, item 3).
@Suite(.tags(.process), .notInFastRun) struct SimFolderWritableTests {
    let card: TemporaryFolder
    let local: TemporaryFolder
    let interpreter: Interpreter
    let output: CapturedOutput

    init() throws {
        card = try makeCardFolder(bigFileSize: 10_000)
        local = try TemporaryFolder("msh-writable-local")
        try local.write("NEW.JPG", patternBytes(500, seed: 11))
        (interpreter, output, _) = makeInterpreter()
        interpreter.environment["XDG_DATA_HOME"] = local.path + "/data"
    }

    private func run(_ line: String) -> LineStatus {
        output.reset()
        return interpreter.run(line: line)
    }

    private var folderRow: String? { output.lines.first { $0.hasPrefix("folder:") } }

    @Test func simPathChangesNothingUnlessAsked() throws {
        try interpreter.open(.simulator(path: card.path))
        let url = "sim:\(card.path)"
        let ask = "open it with --writable (or 'set writable on', then open it again)"
        #expect(run("cd DCIM/100MEDIA; delete --force DJI_0001.JPG") == .failure)
        #expect(output.errors == ["error: delete: \(url) is read-only; \(ask) to delete from the folder"], "\(output.errors)")
        #expect(run("edit; rm DJI_0002.JPG") == .failure)
        #expect(output.errors.last == "error: rm: \(url) is read-only; \(ask) to delete from the folder", "\(output.errors)")
        #expect(run("done; put \(local.path)/NEW.JPG") == .failure)
        #expect(output.errors.last == "error: put: \(url) is read-only; \(ask) to upload into the folder", "\(output.errors)")
        #expect(run("mkdir NEW") == .failure)
        #expect(output.errors.last == "error: mkdir: \(url) is read-only; \(ask) to make folders in it", "\(output.errors)")
        #expect(run("rmdir /DCIM/101MEDIA") == .failure)
        #expect(output.errors.last == "error: rmdir: \(url) is read-only; \(ask) to delete from the folder", "\(output.errors)")
        #expect(run("capture") == .failure)
        #expect(output.errors.last == "error: capture: \(url) is read-only; \(ask) to take pictures into the folder", "\(output.errors)")
        #expect(run("fetch --delete-after -o \(local.path) DJI_0001.JPG") == .failure)
        #expect(output.errors.last == "error: fetch: \(url) is read-only; \(ask) to delete from the folder", "\(output.errors)")
        #expect(card.exists("DCIM/100MEDIA/DJI_0001.JPG") && card.exists("DCIM/100MEDIA/DJI_0002.JPG"))
        #expect(!card.exists("DCIM/100MEDIA/NEW.JPG") && !card.exists("DCIM/100MEDIA/NEW"))
        #expect(run("summary") == .success)
        #expect(folderRow?.hasSuffix("\(card.path) (read-only: --writable, or 'set writable on' before opening it, lets commands change it)") == true,
            "\(output.lines)")

        #expect(run("set writable on") == .success)
        #expect(output.lines == ["writable on: applies when \(url) is opened again ('open \(url)')"], "\(output.lines)")
        #expect(run("open \(url); cd DCIM/100MEDIA; delete --force DJI_0001.JPG") == .success, "\(output.errors)")
        #expect(!card.exists("DCIM/100MEDIA/DJI_0001.JPG"), "deleted from the folder")
        #expect(run("put \(local.path)/NEW.JPG; mkdir NEWER") == .success, "\(output.errors)")
        #expect(card.read("DCIM/100MEDIA/NEW.JPG") == local.read("NEW.JPG"))
        #expect(run("summary") == .success)
        #expect(folderRow?.hasSuffix("\(card.path) (writable: delete, put, mkdir and capture change its files)") == true,
            "\(output.lines)")
    }

    @Test func aCardFolderAndTheDemoCardDeleteAsBefore() throws {
        try interpreter.open(.folder(path: card.path))
        #expect(run("delete --force DCIM/100MEDIA/DJI_0001.JPG") == .success, "\(output.errors)")
        #expect(!card.exists("DCIM/100MEDIA/DJI_0001.JPG"))
        #expect(run("summary") == .success)
        #expect(folderRow?.hasSuffix("\(card.path) (writable: delete removes its files)") == true, "\(output.lines)")

        #expect(run("open sim:; delete --force DCIM/100MEDIA/DJI_0001.JPG") == .success, "\(output.errors)")
        #expect(run("summary") == .success)
        #expect(folderRow == nil, "the demo card is no folder: \(output.lines)")
    }

    @Test func theCommandLineAsksWithWritable() throws {
        guard ShellBinary.exists else { return }
        let url = "sim:\(card.path)"
        let environment = ["XDG_DATA_HOME": local.path + "/data", "XDG_CONFIG_HOME": local.path + "/config"]
        let refused = try ShellBinary.run(["--camera", url, "-c", "delete --force DCIM/100MEDIA/DJI_0001.JPG"], environment: environment)
        #expect(refused.status == 1)
        #expect(refused.errorLines.last?.hasSuffix("error: delete: \(url) is read-only; open it with --writable (or 'set writable on', then open it again) to delete from the folder") == true,
            "\(refused.standardError)")
        #expect(card.exists("DCIM/100MEDIA/DJI_0001.JPG"))
        let allowed = try ShellBinary.run(["--camera", url, "--writable", "-c", "delete --force DCIM/100MEDIA/DJI_0001.JPG"], environment: environment)
        #expect(allowed.status == 0, "\(allowed.standardError)")
        #expect(!card.exists("DCIM/100MEDIA/DJI_0001.JPG"))
    }
}
