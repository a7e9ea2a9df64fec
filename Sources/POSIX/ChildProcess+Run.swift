import Failures

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

extension ChildProcess {
    /// Why a bounded run did not finish.
    public enum RunFailure: Error, Sendable, CustomStringConvertible {
        case couldNotStart(SystemError)
        case tookTooLong(seconds: Double)
        case tooMuchOutput(limit: Int)
        case cancelled
        case failed(SystemError)

        public var description: String {
            switch self {
            case .couldNotStart(let error): "\(error)"
            case .tookTooLong(let seconds): "took more than \(formatSeconds(seconds))"
            case .tooMuchOutput(let limit): "wrote more than \(limit) bytes"
            case .cancelled: "cancelled"
            case .failed(let error): "\(error)"
            }
        }
    }

    /// What a run that finished left: its exit code (nil when a signal ended it) and its standard output.
    public struct Finished: Sendable {
        public var exitCode: Int32?
        public var output: [UInt8]
    }

    /// Runs `executable` to its end with `input` on its standard input, its standard output captured and its
    /// standard error dropped, bounded in time (`timeout` seconds) and in output (`outputLimit` bytes).
    /// `cancellation` is asked every `checkInterval` seconds. Whatever way it ends, the child is gone
    /// (killed and reaped) when this returns.
    public static func run(
        executable: String, arguments: [String], input: [UInt8], outputLimit: Int, timeout: Double,
        checkInterval: Double = 0.05, cancellation: Cancellation = .never
    ) throws(RunFailure) -> Finished {
        var options = Options()
        options.standardInput = .capture
        options.standardOutput = .capture
        let child: ChildProcess
        do throws(SystemError) {
            child = try spawn(executable: executable, arguments: arguments, options: options)
        } catch {
            throw .couldNotStart(error)
        }
        defer { child.killAndReap() }
        let deadline = Deadline.after(timeout)
        let writer = child.standardInput!
        // The input goes in on a thread of its own, so a child that writes before it reads everything
        // cannot deadlock with us.
        let feeder = try? JoinableThread(name: "child-input") {
            try? writer.send(input, .until(deadline))
            writer.close()
        }
        defer {
            writer.close()
            feeder?.join()
        }
        if feeder == nil { writer.close() }

        let reader = child.standardOutput!
        var output: [UInt8] = []
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 1)
        defer { buffer.deallocate() }
        while true {
            if cancellation.isCancelled { throw .cancelled }
            if deadline.hasPassed { throw .tookTooLong(seconds: timeout) }
            let got: Int
            do throws(SystemError) {
                let next = min(deadline, .after(checkInterval))
                got = try reader.receiveSome(into: buffer, .until(next))
            } catch where error.isTimeout {
                continue
            } catch {
                throw .failed(error)
            }
            if got == 0 { break }
            if output.count + got > outputLimit { throw .tooMuchOutput(limit: outputLimit) }
            output += buffer[0..<got]
        }
        // Its output ended: it has exited or is about to.
        while !child.reap(blocking: false) {
            if cancellation.isCancelled { throw .cancelled }
            if deadline.hasPassed { throw .tookTooLong(seconds: timeout) }
            pause(until: min(deadline, .after(0.005)))
        }
        return Finished(exitCode: child.exitCode, output: output)
    }
}

extension ChildProcess.RunFailure: CategorizedError {
    public var category: FailureCategory {
        switch self {
        case .couldNotStart(let error), .failed(let error): error.category
        case .tookTooLong: .timedOut
        case .tooMuchOutput: .localIO
        case .cancelled: .cancelled
        }
    }
}
