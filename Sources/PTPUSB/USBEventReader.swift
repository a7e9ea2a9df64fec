import Foundation
import POSIX
import PTP

/// Reads event containers from the interrupt-in endpoint on a thread of its own and hands them to the
/// handler. Polls with a short timeout so `stop` returns quickly; ends by itself when the device goes.
final class USBEventReader: Sendable {
    /// The interrupt endpoint is read by the reader thread alone (libusb is thread-safe for the rest).
    private let pipe: USBPipe
    private let state = Locked(State())

    private struct State {
        var handler: (@Sendable (PTPEvent) -> Void)?
        var stopped = false
        var thread: JoinableThread?
    }
    /// How long each interrupt read waits before checking for `stop`.
    static let pollInterval: TimeInterval = 0.25

    init(pipe: USBPipe) { self.pipe = pipe }

    func setHandler(_ handler: (@Sendable (PTPEvent) -> Void)?) { state.withLock { $0.handler = handler } }

    func deliver(_ event: PTPEvent) { state.withLock { $0.handler }?(event) }

    func start() throws(SystemError) {
        let thread = try JoinableThread(name: "usb-events") { [self] in run() }
        state.withLock { $0.thread = thread }
    }

    /// Stops delivery and waits for the thread to end (unless called from it, from an event handler).
    func stop() {
        let thread = state.withLock { state in
            state.stopped = true
            state.handler = nil
            return state.thread
        }
        thread?.join()  // does nothing on the thread itself
    }

    private var isStopped: Bool { state.withLock { $0.stopped } }

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
            while pending.count >= ContainerHeader.size {
                guard let header = pending.withUnsafeBytes({ try? ContainerHeader(usb: $0) }),
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
                        parameters: ContainerCodec.parameters(pending[ContainerHeader.size..<length])))
                pending.removeFirst(length)
            }
            // A transfer that ended short ends the container: a partial one is garbage.
            if count < buffer.count, !pending.isEmpty, pending.count < ContainerHeader.size { pending.removeAll() }
        }
    }
}
