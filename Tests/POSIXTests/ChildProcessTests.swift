#if canImport(Glibc)
    import Glibc
#endif
import POSIX
import TestSupport
import Testing

@Suite(.tags(.process), .notInFastRun) struct ChildProcessTests {
    @Test func aRunFeedsInputAndCollectsOutput() throws {
        let finished = try ChildProcess.run(
            executable: "/bin/cat", arguments: [], input: Array("through cat".utf8), outputLimit: 1 << 20, timeout: 30)
        #expect(finished.exitCode == 0)
        #expect(finished.output == Array("through cat".utf8))
    }

    @Test func aChildInheritsNoDescriptorItWasNotGiven() throws {
        // Opened without close-on-exec, as a library might: the child must not get it all the same.
        let path = "/tmp/msh-inherit-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        #expect(fd > 2)
        defer {
            close(fd)
            unlink(path)
        }
        let finished = try ChildProcess.run(
            executable: "/bin/sh", arguments: ["-c", "ls /proc/$$/fd"], input: [], outputLimit: 1 << 16, timeout: 30)
        let held = String(decoding: finished.output, as: UTF8.self).split(separator: "\n").compactMap { Int32($0) }
        #expect(finished.exitCode == 0)
        #expect(held.contains(1), "the child's own output is open: \(held)")
        #expect(!held.contains(fd), "descriptor \(fd) went down to the child: \(held)")
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
            try ChildProcess.run(executable: "/bin/sleep", arguments: ["60"], input: [], outputLimit: 16, timeout: 60, cancellation: { let c = Cancellation(); c.cancel(); return c }())
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
