#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A new folder only this user can enter (mkdtemp, mode 0700) under `parent`.
public func makePrivateFolder(under parent: String, prefix: String) throws(SystemError) -> String {
    var template = Array("\(parent)/\(prefix)XXXXXX".utf8CString)
    let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    guard made != nil else { throw SystemError(.mkdtemp, path: parent, errno: errno) }
    return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// True when `path` names an executable regular file.
public func isExecutableFile(_ path: String) -> Bool {
    var info = stat()
    return access(path, X_OK) == 0 && stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
}

/// The first executable `name` in the folders of `path` (a PATH value), nil when there is none.
public func findExecutable(_ name: String, path: String?) -> String? {
    for folder in (path ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":") where !folder.isEmpty {
        let candidate = "\(folder)/\(name)"
        if isExecutableFile(candidate) { return candidate }
    }
    return nil
}

/// This machine's host name, nil when it has none.
public func localHostName() -> String? {
    var buffer = [CChar](repeating: 0, count: 256)
    guard gethostname(&buffer, buffer.count - 1) == 0 else { return nil }
    let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return name.isEmpty ? nil : name
}
