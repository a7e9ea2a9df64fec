#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Runs a system call that reports failure as -1 and errno, retrying while it fails with EINTR, so an
/// interrupted call is never mistaken for an error. Every call in this module goes through here.
///
/// EBADF and EFAULT stop the program: they mean a descriptor used after it was released or a bad buffer,
/// bugs to fix rather than conditions to handle (a closed descriptor number may already belong to another
/// file, so carrying on would read or write the wrong thing).
@discardableResult
public func systemCall<T: FixedWidthInteger>(
    _ name: SystemError.Call, on target: @autoclosure () -> String? = nil, path: String? = nil, _ call: () -> T
) throws(SystemError) -> T {
    while true {
        let result = call()
        guard result == -1 else { return result }
        let code = errno
        if code == EINTR { continue }
        precondition(code != EBADF && code != EFAULT, "\(name): \(errnoText(code)): a descriptor or buffer used after it was released")
        throw SystemError(name, on: target(), path: path, errno: code)
    }
}

/// For the calls that return an errno value instead of setting errno (posix_spawn, pthread_create).
func checkReturnedErrno(_ name: SystemError.Call, on target: @autoclosure () -> String?, _ status: Int32) throws(SystemError) {
    guard status != 0 else { return }
    precondition(status != EBADF && status != EFAULT, "\(name): \(errnoText(status))")
    throw SystemError(name, on: target(), errno: status)
}
