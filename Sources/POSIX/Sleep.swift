#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Sleeps until `deadline` on the monotonic clock (clock_nanosleep with TIMER_ABSTIME), so a series of
/// sleeps towards planned moments does not accumulate each one's oversleep. Returns at once for a past one.
public func sleep(until deadline: Deadline) {
    guard deadline.seconds > monotonicSeconds() else { return }
    let whole = deadline.seconds.rounded(.down)
    var target = timespec(tv_sec: Int(whole), tv_nsec: Int((deadline.seconds - whole) * 1e9))
    // EINTR: sleep again towards the same absolute moment.
    while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &target, nil) == EINTR {}
}
