import Foundation
import MediaManager
import PTP

/// The camera's events as they arrive (on a transport thread), kept for the command that waits on them
/// (`events`, `watch`) on its own thread. Bounded: a device that floods events loses the oldest, counted,
/// never the memory of this process.
final class CameraEventQueue: @unchecked Sendable {
    // Safety: `items`, `dropped` and `token` are only touched with `condition` held.
    private let condition = NSCondition()
    private var items: [Arrival] = []
    private var dropped = 0
    private let camera: Camera
    private var token: Int?
    private let lookup: @Sendable (UInt32) -> String?
    static let capacity = 10_000

    /// An event, and the path of the object it names as the catalog knew it when it came (before the
    /// catalog applied it: a removed file still has its path).
    struct Arrival: Sendable {
        var event: PTPEvent
        var path: String?
    }

    /// Starts listening to `camera`'s events; `stop` ends it. `lookup` gives an object's path from a cache
    /// (it runs on the transport's thread: no device request).
    init(_ camera: Camera, lookup: @escaping @Sendable (UInt32) -> String? = { _ in nil }) {
        self.camera = camera
        self.lookup = lookup
        let id = camera.addEventHandler { [weak self] in self?.put($0) }
        condition.withLock { token = id }
    }

    func stop() {
        if let id = condition.withLock({ token }) { camera.removeEventHandler(id) }
        condition.withLock { token = nil }
    }

    deinit { stop() }

    private func put(_ event: PTPEvent) {
        let path = event.code == .objectRemoved ? lookup(event.parameter(0)) : nil
        condition.withLock {
            if items.count >= Self.capacity {
                items.removeFirst()
                dropped += 1
            }
            items.append(Arrival(event: event, path: path))
            condition.broadcast()
        }
    }

    /// The events that came, waiting up to `seconds` for the first; and how many were lost to the bound
    /// since the last call.
    func take(upTo seconds: Double) -> (events: [Arrival], dropped: Int) {
        condition.withLock {
            let deadline = Date(timeIntervalSinceNow: seconds)
            while items.isEmpty && condition.wait(until: deadline) {}
            defer {
                items = []
                dropped = 0
            }
            return (items, dropped)
        }
    }
}
