import CMediaShellShim

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

/// Makes the calling thread's timed sleeps end on their moment: a timer slack of 1 ns instead of Linux's
/// default 50 microseconds, by which every sleep otherwise ends late. For sleeps that model time (the
/// paced link of `serve --link` sleeps two or three times per request); threads started afterwards
/// inherit it. Costs one system call.
public func usePreciseSleeps() {
    _ = msh_set_minimal_timer_slack()
}

/// The calling thread's timer slack, in nanoseconds: how late its timed sleeps may end (-1 if unknown).
public func timerSlackNanoseconds() -> Int { msh_timer_slack() }
