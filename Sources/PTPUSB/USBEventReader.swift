import Foundation
import PTP

/// Reads event containers from the interrupt-in endpoint on a thread of its own and hands them to the
/// handler. Polls with a short timeout so `stop` returns quickly; ends by itself when the device goes.
final class USBEventReader: @unchecked Sendable {
    private let pipe: USBPipe
    private let lock = NSLock()
    private var handler: (@Sendable (PTPEvent) -> Void)?
    private var stopped = false
    private var thread: pthread_t?
    private let finished = DispatchSemaphore(value: 0)
    /// How long each interrupt read waits before checking for `stop`.
    static let pollInterval: TimeInterval = 0.25

    init(pipe: USBPipe) { self.pipe = pipe }

    func setHandler(_ handler: (@Sendable (PTPEvent) -> Void)?) { lock.withLock { self.handler = handler } }

    func deliver(_ event: PTPEvent) { lock.withLock { handler }?(event) }

    func start() {
        let thread = Thread { [self] in
            lock.withLock { self.thread = pthread_self() }
            run()
            finished.signal()
        }
        thread.name = "usb-events"
        thread.start()
    }

    /// Stops delivery and waits for the thread to end (unless called from it, from an event handler).
    func stop() {
        let current = lock.withLock {
            stopped = true
            handler = nil
            return thread.map { pthread_equal($0, pthread_self()) != 0 } ?? false
        }
        if !current { finished.wait() }
    }

    private var isStopped: Bool { lock.withLock { stopped } }

    private func run() {
        // Up to 1024 bytes: a whole number of packets for any interrupt endpoint, room for any event.
        var buffer = [UInt8](repeating: 0, count: 1024)
        var pending: [UInt8] = []
        var failures = 0
        while !isStopped {
            let count: Int
            do {
                count = try buffer.withUnsafeMutableBytes { try pipe.interruptIn(into: $0, timeout: Self.pollInterval) }
                failures = 0
            } catch LibUSBError.timeout {
                continue
            } catch LibUSBError.pipe {
                try? pipe.clearHalt(.interruptIn)
                continue
            } catch LibUSBError.noDevice {
                return
            } catch {
                failures += 1
                if failures > 5 { return }
                Thread.sleep(forTimeInterval: 0.05)
                continue
            }
            pending += buffer[0..<count]
            while pending.count >= USBContainerHeader.size {
                guard let header = pending.withUnsafeBytes({ try? USBContainerHeader(decoding: $0) }),
                    header.kind == .event
                else {
                    pending.removeAll()  // not an event container: drop it and resynchronize
                    break
                }
                let length = Int(header.length)
                guard pending.count >= length else { break }
                deliver(
                    PTPEvent(
                        EventCode(header.code), transactionID: header.transactionID,
                        parameters: USBContainer.parameters(pending[USBContainerHeader.size..<length])))
                pending.removeFirst(length)
            }
            // A transfer that ended short ends the container: a partial one is garbage.
            if count < buffer.count, !pending.isEmpty, pending.count < USBContainerHeader.size { pending.removeAll() }
        }
    }
}
