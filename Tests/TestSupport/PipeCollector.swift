import Foundation
import POSIX

/// What a child process writes to a pipe, gathered while it runs by a thread of its own that reads until
/// end of file, so a test can wait for a line the child prints.
///
/// Not `FileHandle.readabilityHandler`: on Linux that is a libdispatch read source, and a source torn down
/// as its pipe reaches end of file can crash libdispatch's event loop with a bad pointer in
/// `_dispatch_event_loop_drain` (swift-corelibs-foundation#3276); CI met it as a signal 11 in the test
/// process. A blocking read on a plain thread has no registration to outlive the descriptor.
public final class PipeCollector: Sendable {
    private struct Gathered {
        var bytes = Data()
        var ended = false
    }

    public let pipe = Pipe()
    private let gathered = LockedCondition(Gathered())

    /// Starts reading now; hand `pipe` to the child (standardOutput/standardError) before it runs. The
    /// thread ends at end of file: when every holder of the write end (the child and its children) closed it.
    public init() {
        let handle = pipe.fileHandleForReading
        let thread = Thread { [gathered] in
            while true {
                let chunk = handle.availableData
                gathered.change { gathered in
                    if chunk.isEmpty { gathered.ended = true } else { gathered.bytes.append(chunk) }
                }
                if chunk.isEmpty { return }
            }
        }
        thread.name = "pipe-collector"
        thread.start()
    }

    /// Everything read so far.
    public var data: Data { gathered.withLock { $0.bytes } }
    public var text: String { String(decoding: data, as: UTF8.self) }

    /// Waits until `predicate` holds for what was read, at most `timeout` seconds or until end of file;
    /// returns whether it held.
    @discardableResult
    public func wait(timeout: Double = 30, until predicate: (Data) -> Bool) -> Bool {
        gathered.wait(until: .after(timeout), for: { predicate($0.bytes) || $0.ended }) { predicate($0.bytes) } ?? false
    }

    /// Waits until what was read holds `text` (see `wait(timeout:until:)`).
    @discardableResult
    public func wait(for text: String, timeout: Double = 30) -> Bool {
        wait(timeout: timeout) { String(decoding: $0, as: UTF8.self).contains(text) }
    }

    /// Waits until end of file, at most `timeout` seconds; returns whether it came.
    @discardableResult
    public func waitForEnd(timeout: Double = 10) -> Bool {
        gathered.wait(until: .after(timeout)) { $0.ended }
    }
}
