import Foundation
import POSIX

/// mpv's JSON IPC over a connected socket: one JSON object per line each way. Requests carry a `request_id`
/// and wait (bounded) for the reply with that id; events are counted, so a caller can wait for the next
/// `playback-restart`, and handed to `onEvent` on the reader thread, in order.
final class MPVConnection: @unchecked Sendable {
    /// An event as mpv sent it: its name, and for `property-change` the property and its value.
    struct Event: Sendable {
        var name: String
        var property: String?
        var boolValue: Bool?
        var reason: String?
        var fileError: String?
    }

    /// Why a request got no answer.
    enum Failure: Error, CustomStringConvertible {
        case closed
        case timedOut(String)
        case refused(String, String)

        var description: String {
            switch self {
            case .closed: "the player's connection is closed"
            case .timedOut(let command): "the player did not answer \(command) in time"
            case .refused(let command, let error): "the player refused \(command): \(error)"
            }
        }
    }

    /// Longest line accepted from mpv; a longer one means something is wrong, and the connection closes.
    static let maxLineBytes = 1 << 20

    private let socket: Socket
    private let onEvent: @Sendable (Event) -> Void
    // Safety: everything below `condition` is guarded by it.
    private let condition = NSCondition()
    private var nextID = 1
    private var replies: [Int: (error: String, data: Any?)] = [:]
    /// Requests whose caller stopped waiting: their late replies are dropped.
    private var abandoned: Set<Int> = []
    private var eventCounts: [String: Int] = [:]
    private var lastEnd: Event?
    private var open = true
    private var reader: JoinableThread?

    init(socket: Socket, onEvent: @escaping @Sendable (Event) -> Void) throws(SystemError) {
        self.socket = socket
        self.onEvent = onEvent
        let thread = try JoinableThread(name: "mpv-ipc") { [self] in readLoop() }
        condition.withLock { reader = thread }
    }

    var isOpen: Bool { condition.withLock { open } }

    /// Sends `command` and waits up to `timeout` seconds for its reply; returns the reply's `data`.
    @discardableResult
    func request(_ command: [Any], timeout: Double) throws(Failure) -> Any? {
        let name = "'\(command.first.map { "\($0)" } ?? "")'"
        let id = condition.withLock { () -> Int in
            defer { nextID += 1 }
            return nextID
        }
        guard let json = try? JSONSerialization.data(withJSONObject: ["command": command, "request_id": id]) else {
            throw .refused(name, "not JSON")
        }
        do {
            try socket.send(Array(json) + [UInt8(ascii: "\n")], .until(.after(timeout)))
        } catch {
            throw .closed
        }
        // The bound is a monotonic deadline; the condition's wall-clock wait only paces one pass.
        let deadline = Deadline.after(timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let reply = replies.removeValue(forKey: id) {
                guard reply.error == "success" else { throw .refused(name, reply.error) }
                return reply.data
            }
            if !open { throw .closed }
            if deadline.hasPassed {
                abandoned.insert(id)
                throw .timedOut(name)
            }
            _ = condition.wait(until: Date(timeIntervalSinceNow: deadline.remaining))
        }
    }

    /// How many `name` events arrived so far: take it before a command, then `waitForEvent(name, after:)`.
    func eventCount(_ name: String) -> Int {
        condition.withLock { eventCounts[name, default: 0] }
    }

    /// Waits until more than `count` events named one of `names` arrived, or `timeout` passes, or the
    /// connection closes; returns the name that arrived, nil otherwise.
    func waitForEvent(_ names: [String], after counts: [Int], timeout: Double) -> String? {
        let deadline = Deadline.after(timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            for (name, count) in zip(names, counts) where eventCounts[name, default: 0] > count { return name }
            if !open || deadline.hasPassed { return nil }
            _ = condition.wait(until: Date(timeIntervalSinceNow: deadline.remaining))
        }
    }

    /// The last `end-file` event (with its reason and error), for telling why a file did not open.
    var lastEndOfFile: Event? { condition.withLock { lastEnd } }

    /// Closes the connection and waits for the reader thread to finish (the shutdown wakes it at once), so
    /// nothing reads the socket once this returns. From the reader thread itself (an event handler), it
    /// closes without waiting.
    func close() {
        socket.shutdown()
        condition.withLock { reader }?.join()
        socket.close()
    }

    // MARK: Reading

    private func readLoop() {
        var pending = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 16 << 10)
        defer {
            condition.withLock {
                open = false
                condition.broadcast()
            }
            onEvent(Event(name: "connection-closed"))
        }
        while true {
            let got: Int
            do {
                got = try buffer.withUnsafeMutableBytes { (raw) throws(SystemError) in try socket.receiveSome(into: raw, .forever) }
            } catch {
                return
            }
            if got == 0 { return }
            pending.append(contentsOf: buffer[0..<got])
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(pending[..<newline])
                pending.removeFirst(newline + 1)
                handle(line)
            }
            if pending.count > Self.maxLineBytes { return }
        }
    }

    private func handle(_ line: [UInt8]) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any] else { return }
        if let name = object["event"] as? String {
            var event = Event(name: name)
            event.property = object["name"] as? String
            event.boolValue = object["data"] as? Bool
            event.reason = object["reason"] as? String
            event.fileError = object["file_error"] as? String
            condition.withLock {
                eventCounts[name, default: 0] += 1
                if name == "end-file" { lastEnd = event }
                condition.broadcast()
            }
            onEvent(event)
        } else if let id = object["request_id"] as? Int, let error = object["error"] as? String {
            condition.withLock {
                if abandoned.remove(id) == nil { replies[id] = (error, object["data"]) }
                condition.broadcast()
            }
        }
    }
}
