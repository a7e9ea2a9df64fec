import Foundation
import POSIX

/// mpv's JSON IPC over a connected socket: one JSON object per line each way. Requests carry a `request_id`
/// and wait (bounded) for the reply with that id; events are counted, so a caller can wait for the next
/// `playback-restart`, and handed to `onEvent` on the reader thread, in order.
final class MPVConnection: Sendable {
    /// A reply's `data`, read as the player reads it: as a number, or as a flag.
    struct Value: Sendable {
        let number: Double?
        let flag: Bool?

        init(_ json: Any?) {
            number = json as? Double
            flag = json as? Bool
        }
    }

    /// An event as mpv sent it: its name, and for `property-change` the property and its value.
    struct Event: Sendable {
        var name: String
        var property: String?
        var boolValue: Bool?
        var reason: String?
        var fileError: String?
    }

    /// Why a request got no answer.
    typealias Failure = PlayerCommandFailure

    /// Longest line accepted from mpv; a longer one means something is wrong, and the connection closes.
    static let maxLineBytes = 1 << 20

    private let socket: Socket
    private let onEvent: @Sendable (Event) -> Void
    /// What the reader thread hands to the requests waiting.
    private let exchange = LockedCondition(Exchange())

    private struct Exchange {
        var nextID = 1
        var replies: [Int: (error: String, data: Value)] = [:]
        /// Requests whose caller stopped waiting: their late replies are dropped.
        var abandoned: Set<Int> = []
        var eventCounts: [String: Int] = [:]
        var lastEnd: Event?
        var open = true
        var reader: JoinableThread?
    }

    init(socket: Socket, onEvent: @escaping @Sendable (Event) -> Void) throws(SystemError) {
        self.socket = socket
        self.onEvent = onEvent
        let thread = try JoinableThread(name: "mpv-ipc") { [self] in readLoop() }
        exchange.withLock { $0.reader = thread }
    }

    var isOpen: Bool { exchange.withLock { $0.open } }

    /// Sends `command` and waits up to `timeout` seconds for its reply; returns the reply's `data`.
    @discardableResult
    func request(_ command: [Any], timeout: Double) throws(Failure) -> Value {
        let name = command.first.map { "\($0)" } ?? ""
        let id = exchange.withLock { exchange -> Int in
            defer { exchange.nextID += 1 }
            return exchange.nextID
        }
        guard let json = try? JSONSerialization.data(withJSONObject: ["command": command, "request_id": id]) else {
            throw .unencodable(command: name)
        }
        do {
            try socket.send(Array(json) + [UInt8(ascii: "\n")], .until(.after(timeout)))
        } catch {
            throw .closed
        }
        let outcome = exchange.wait(until: .after(timeout), for: { $0.replies[id] != nil || !$0.open }) { exchange in
            exchange.replies.removeValue(forKey: id).map { Result<_, Failure>.success($0) } ?? .failure(.closed)
        }
        guard let outcome else {
            // A reply that came after the deadline is dropped now; one still to come, when it comes.
            exchange.withLock { if $0.replies.removeValue(forKey: id) == nil { $0.abandoned.insert(id) } }
            throw .timedOut(command: name)
        }
        let reply = try outcome.get()
        guard reply.error == "success" else { throw .refused(command: name, error: reply.error) }
        return reply.data
    }

    /// How many `name` events arrived so far: take it before a command, then `waitForEvent(name, after:)`.
    func eventCount(_ name: String) -> Int {
        exchange.withLock { $0.eventCounts[name, default: 0] }
    }

    /// Waits until more than `count` events named one of `names` arrived, or `timeout` passes, or the
    /// connection closes; returns the name that arrived, nil otherwise.
    func waitForEvent(_ names: [String], after counts: [Int], timeout: Double) -> String? {
        func arrived(_ exchange: borrowing Exchange) -> String? {
            zip(names, counts).first { name, count in exchange.eventCounts[name, default: 0] > count }?.0
        }
        return exchange.wait(until: .after(timeout), for: { arrived($0) != nil || !$0.open }) { arrived($0) } ?? nil
    }

    /// The last `end-file` event (with its reason and error), for telling why a file did not open.
    var lastEndOfFile: Event? { exchange.withLock { $0.lastEnd } }

    /// Closes the connection and waits for the reader thread to finish (the shutdown wakes it at once), so
    /// nothing reads the socket once this returns. From the reader thread itself (an event handler), it
    /// closes without waiting.
    func close() {
        socket.shutdown()
        exchange.withLock { $0.reader }?.join()
        socket.close()
    }

    // MARK: Reading

    private func readLoop() {
        var pending = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 16 << 10)
        defer {
            exchange.change { $0.open = false }
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
            exchange.change { exchange in
                exchange.eventCounts[name, default: 0] += 1
                if name == "end-file" { exchange.lastEnd = event }
            }
            onEvent(event)
        } else if let id = object["request_id"] as? Int, let error = object["error"] as? String {
            let data = Value(object["data"])
            exchange.change { exchange in
                if exchange.abandoned.remove(id) == nil { exchange.replies[id] = (error, data) }
            }
        }
    }
}
