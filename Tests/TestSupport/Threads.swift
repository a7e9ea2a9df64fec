import Foundation
import POSIX

/// The threads of a process (`process`: a pid, or "self") that have not ended, by id, with their names, from
/// /proc/PID/task. A thread that has ended stays listed for a moment after its end is announced (state Z
/// or X in its stat): it is left out, so that a count taken once `waitForThreadsToEnd` returned is exact.
public func liveThreads(of process: String = "self") -> [pid_t: String] {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(process)/task")) ?? []
    var live: [pid_t: String] = [:]
    for task in tasks {
        guard let id = pid_t(task),
            let stat = try? String(contentsOfFile: "/proc/\(process)/task/\(task)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { continue }  // gone while listed
        // "TID (NAME) STATE ...": the name may hold spaces and parentheses, the state follows the last ")".
        let state = stat[close...].dropFirst().first { $0 != " " }
        if state == "Z" || state == "X" { continue }
        guard let open = stat.firstIndex(of: "(") else { continue }
        live[id] = String(stat[stat.index(after: open)..<close])
    }
    return live
}

/// Waits until each of `threads` (ids as /proc/PID/task lists them, in this process or another) has ended,
/// at most until `deadline`; whether all did. Woken by each thread's end through a pidfd of its own
/// (PIDFD_THREAD, Linux 6.9 and later).
public func waitForThreadsToEnd(_ threads: some Sequence<pid_t>, until deadline: Deadline) throws -> Bool {
    var all = true
    for thread in threads where !(try threadEnded(thread, until: deadline)) { all = false }
    return all
}

/// Whether `thread` ended by `deadline`: woken by its pidfd, or, on a kernel without one for threads,
/// looked at as `waitForThreadToLeaveProcWithoutPidfd` says.
private func threadEnded(_ thread: pid_t, until deadline: Deadline) throws -> Bool {
    do {
        guard let end = try EndWatch(thread: thread) else { return true }  // ended already
        return try end.wait(until: deadline)
    } catch where error.errno == EINVAL {
        return waitForThreadToLeaveProcWithoutPidfd(thread, until: deadline)
    }
}

/// For a kernel before 6.9 only, which has no pidfd for one thread: nothing there announces a thread's end
/// to another thread than its joiner (and a joined thread is still on its way out of the kernel), so its
/// /proc entry is looked at every 10 ms until it is gone or dead, at most until `deadline`.
private func waitForThreadToLeaveProcWithoutPidfd(_ thread: pid_t, until deadline: Deadline) -> Bool {
    while !isGoneOrDead(thread) {
        if deadline.hasPassed { return false }
        pause(until: .after(0.01))
    }
    return true
}

/// True when /proc has no `thread`, or its state is Z or X.
private func isGoneOrDead(_ thread: pid_t) -> Bool {
    guard let stat = try? String(contentsOfFile: "/proc/\(thread)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
    else { return true }
    let state = stat[close...].dropFirst().first { $0 != " " }
    return state == "Z" || state == "X"
}
