import POSIX
import PTP

/// The camera's events as they arrive (on a transport thread), kept for the command that waits on them
/// (`events`, `watch`) on its own thread. Bounded: a device that floods events loses the oldest, counted,
/// never the memory of this process.
public final class CameraEventQueue: Sendable {
    /// The events not taken yet, how many the bound lost, and the camera's handler token while listening.
    private let queue = LockedCondition(Queue())
    private let camera: Camera

    private struct Queue {
        var items: [Arrival] = []
        var dropped = 0
        var token: Int?
    }
    private let lookup: @Sendable (UInt32) -> String?
    public static let capacity = 10_000

    /// An event, and the path of the object it names as the catalog knew it when it came (before the
    /// catalog applied it: a removed file still has its path).
    public struct Arrival: Sendable {
        public var event: PTPEvent
        public var path: String?
    }

    /// Starts listening to `camera`'s events; `stop` ends it. `lookup` gives an object's path from a cache
    /// (it runs on the transport's thread: no device request).
    public init(_ camera: Camera, lookup: @escaping @Sendable (UInt32) -> String? = { _ in nil }) {
        self.camera = camera
        self.lookup = lookup
        let id = camera.addEventHandler { [weak self] in self?.put($0) }
        queue.withLock { $0.token = id }
    }

    public func stop() {
        let id = queue.withLock { queue in
            defer { queue.token = nil }
            return queue.token
        }
        if let id { camera.removeEventHandler(id) }
    }

    deinit { stop() }

    private func put(_ event: PTPEvent) {
        let path = event.code == .objectRemoved ? lookup(event.parameter(0)) : nil
        queue.change { queue in
            if queue.items.count >= Self.capacity {
                queue.items.removeFirst()
                queue.dropped += 1
            }
            queue.items.append(Arrival(event: event, path: path))
        }
    }

    /// The events that came, waiting up to `seconds` for the first; and how many were lost to the bound
    /// since the last call.
    public func take(upTo seconds: Double) -> (events: [Arrival], dropped: Int) {
        _ = queue.wait(until: .after(seconds)) { !$0.items.isEmpty }
        return queue.withLock { queue in
            defer {
                queue.items = []
                queue.dropped = 0
            }
            return (queue.items, queue.dropped)
        }
    }
}
