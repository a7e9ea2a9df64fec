import Foundation
import MediaManager
import TestSupport
import Testing

@testable import Shell

/// A download that fails on its first request (the camera refuses it: DeviceBusy in shoot mode) leaves no
/// empty `.part` behind, in the foreground, as a job and in an import (issue 27, item 12).
@Suite struct NoEmptyPartTests {
    let home: TemporaryFolder
    let interpreter: Interpreter
    let output: CapturedOutput

    init() throws {
        home = try TemporaryFolder("msh-nopart")
        (interpreter, output, _) = makeInterpreter()
        interpreter.environment["XDG_DATA_HOME"] = home.path + "/data"
        try interpreter.open(.simulator(path: nil))
        #expect(interpreter.run(line: "cd DCIM/100MEDIA; mode shoot") == .success)
    }

    private func leftovers(_ folder: String) -> [String] {
        (FileManager.default.subpaths(atPath: home.path + "/" + folder) ?? []).filter { $0.hasSuffix(".part") }
    }

    @Test func aRefusedFirstRequestLeavesNoPart() {
        #expect(interpreter.run(line: "fetch -o \(home.path)/fg DJI_0001.JPG DJI_0002.JPG") == .failure)
        #expect(leftovers("fg").isEmpty, "\(leftovers("fg"))")
        #expect(interpreter.run(line: "fetch -o \(home.path)/job DJI_0001.JPG &; wait") == .failure)
        #expect(leftovers("job").isEmpty, "\(leftovers("job"))")
        #expect(interpreter.run(line: "import --to \(home.path)/imp/%f DJI_0001.JPG") == .failure)
        #expect(leftovers("imp").isEmpty, "\(leftovers("imp"))")
    }
}
