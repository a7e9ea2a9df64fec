#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// What poll(2) saw on one descriptor.
public struct PollEvents: OptionSet, Sendable {
    public let rawValue: Int16
    public init(rawValue: Int16) { self.rawValue = rawValue }
    public static let readable = PollEvents(rawValue: Int16(POLLIN))
    public static let writable = PollEvents(rawValue: Int16(POLLOUT))
    public static let hangup = PollEvents(rawValue: Int16(POLLHUP))
    public static let error = PollEvents(rawValue: Int16(POLLERR))
    public static let invalid = PollEvents(rawValue: Int16(POLLNVAL))
}

/// Waits until one of `descriptors` reports one of `events` (or a hang-up or error), or `deadline` passes.
/// Returns what each descriptor reported (all empty on a timeout). An interrupted wait resumes with the
/// time that is left.
public func pollDescriptors(_ descriptors: [Int32], events: PollEvents, deadline: Deadline?) throws(SystemError) -> [PollEvents] {
    var entries = descriptors.map { pollfd(fd: $0, events: events.rawValue, revents: 0) }
    try entries.withUnsafeMutableBufferPointer { (buffer) throws(SystemError) in
        _ = try systemCall(.poll) { poll(buffer.baseAddress, nfds_t(buffer.count), pollMilliseconds(until: deadline)) }
    }
    let seen = entries.map { PollEvents(rawValue: $0.revents) }
    precondition(!seen.contains { $0.contains(.invalid) }, "poll: a descriptor used after it was released")
    return seen
}

/// Sleeps until `deadline` (for back-off after a transient failure; never to wait for an event).
public func pause(until deadline: Deadline) {
    _ = try? pollDescriptors([], events: [], deadline: deadline)
}
