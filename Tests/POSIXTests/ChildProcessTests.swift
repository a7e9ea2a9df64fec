import POSIX
import Testing

@Suite struct ChildProcessTests {
    @Test func aRunFeedsInputAndCollectsOutput() throws {
        let finished = try ChildProcess.run(
            executable: "/bin/cat", arguments: [], input: Array("through cat".utf8), outputLimit: 1 << 20, timeout: 30)
        #expect(finished.exitCode == 0)
        #expect(finished.output == Array("through cat".utf8))
    }

    @Test func anExitCodeComesBack() throws {
        let finished = try ChildProcess.run(executable: "/bin/sh", arguments: ["-c", "exit 3"], input: [], outputLimit: 16, timeout: 30)
        #expect(finished.exitCode == 3)
    }

    @Test func tooMuchOutputKillsTheChild() throws {
        #expect {
            try ChildProcess.run(executable: "/bin/sh", arguments: ["-c", "yes"], input: [], outputLimit: 1 << 16, timeout: 30)
        } throws: { error in
            if case .tooMuchOutput(1 << 16) = error as? ChildProcess.RunFailure { return true }
            return false
        }
    }

    @Test func aRunPastItsTimeIsKilled() throws {
        #expect {
            try ChildProcess.run(executable: "/bin/sleep", arguments: ["60"], input: [], outputLimit: 16, timeout: 0.2)
        } throws: { error in
            if case .tookTooLong = error as? ChildProcess.RunFailure { return true }
            return false
        }
    }

    @Test func cancellingARunKillsTheChild() throws {
        #expect {
            try ChildProcess.run(executable: "/bin/sleep", arguments: ["60"], input: [], outputLimit: 16, timeout: 60, isCancelled: { true })
        } throws: { error in
            if case .cancelled = error as? ChildProcess.RunFailure { return true }
            return false
        }
    }

    @Test func aMissingProgramCannotStart() throws {
        #expect {
            try ChildProcess.run(executable: "/nonexistent/program", arguments: [], input: [], outputLimit: 16, timeout: 5)
        } throws: { error in
            if case .couldNotStart = error as? ChildProcess.RunFailure { return true }
            return false
        }
    }

    @Test func killAndReapLeavesNoChild() throws {
        let child = try ChildProcess.spawn(executable: "/bin/sleep", arguments: ["60"])
        child.killAndReap()
        #expect(child.status != nil && child.exitCode == nil)
    }
}
