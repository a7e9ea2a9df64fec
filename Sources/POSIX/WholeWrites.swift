#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Writes every byte of `bytes` to `descriptor` (a terminal, a pipe, a file at its offset) in as many
/// write(2) calls as it takes, EINTR retried; a write that writes nothing fails as EIO. Unlike `systemCall`,
/// EBADF is an error to report, not a bug: standard output and error may have been closed by whoever
/// started the program (`mediashell -c ls >&-`).
public func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) throws(SystemError) {
    guard var next = bytes.baseAddress else { return }
    var left = bytes.count
    while left > 0 {
        let written = write(descriptor, next, left)
        if written < 0 && errno == EINTR { continue }
        guard written > 0 else { throw SystemError(.write, errno: written < 0 ? errno : EIO) }
        next += written
        left -= written
    }
}

/// `writeAll` of an array's bytes.
public func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) throws(SystemError) {
    // withUnsafeBytes rethrows untyped: the failure is carried out of it.
    var failure: SystemError?
    bytes.withUnsafeBytes { buffer in
        do throws(SystemError) { try writeAll(descriptor, buffer) } catch { failure = error }
    }
    if let failure { throw failure }
}
