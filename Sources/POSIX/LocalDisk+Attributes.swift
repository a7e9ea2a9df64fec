import CMediaShellShim
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Extended attributes of an open file (`user.` names): small records kept with a file that travel with it
/// through a rename and go with it when it is removed. Not every filesystem has them (FAT and exFAT, the
/// filesystems of memory cards, have none; a network share may refuse them).
extension LocalDisk {
    /// The value of attribute `name` of the open file `fd`, or nil when it has none. At most `limit` bytes:
    /// a longer value is an error (ERANGE), never read in part.
    public static func extendedAttribute(_ fd: Int32, _ name: String, path: String, limit: Int = 4096) throws(SystemError) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: limit)
        do {
            let count = try systemCall(.fgetxattr, path: path) {
                buffer.withUnsafeMutableBytes { msh_fgetxattr(fd, name, $0.baseAddress, UInt(limit)) }
            }
            return Array(buffer.prefix(count))
        } catch where error.errno == ENODATA {
            return nil
        }
    }

    /// Sets attribute `name` of the open file `fd` to `value`, replacing what it held.
    public static func setExtendedAttribute(_ fd: Int32, _ name: String, _ value: [UInt8], path: String) throws(SystemError) {
        try systemCall(.fsetxattr, path: path) { value.withUnsafeBytes { msh_fsetxattr(fd, name, $0.baseAddress, UInt(value.count)) } }
    }

    /// Removes attribute `name` of the open file `fd`; one it does not have is no error.
    public static func removeExtendedAttribute(_ fd: Int32, _ name: String, path: String) throws(SystemError) {
        do {
            try systemCall(.fremovexattr, path: path) { msh_fremovexattr(fd, name) }
        } catch where error.errno == ENODATA {
            return
        }
    }
}

extension SystemError.Call {
    public static let fgetxattr: SystemError.Call = "fgetxattr"
    public static let fsetxattr: SystemError.Call = "fsetxattr"
    public static let fremovexattr: SystemError.Call = "fremovexattr"
}
