#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// What mediashell learns and keeps between runs on this computer (the XDG state directory): the prompt's
/// history, this computer's PTP/IP identity, the cameras it has paired with, the computers a `serve` let in.
public enum StateLocation {
    /// `$XDG_STATE_HOME/mediashell`, or `~/.local/state/mediashell` when `XDG_STATE_HOME` is unset or not
    /// absolute (as the XDG spec asks); nil without a usable home.
    public static func folder(environment: [String: String]) -> String? {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            return state + "/mediashell"
        }
        if let home = environment["HOME"], home.hasPrefix("/") {
            return (home == "/" ? "" : home) + "/.local/state/mediashell"
        }
        return nil
    }
}

/// Small text files only this user may read (mode 0600, in folders of mode 0700), each replaced whole: a
/// reader sees the old text or the new, never half of either.
public enum PrivateFile {
    /// The file's text; nil when it does not exist. Files over `limit` bytes are an error (EFBIG).
    public static func text(at path: String, limit: Int = 1 << 20) throws(SystemError) -> String? {
        let descriptor: Int32
        do {
            descriptor = try systemCall("open", path: path) { open(path, O_RDONLY | O_CLOEXEC) }
        } catch where error.errno == ENOENT {
            return nil
        }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = try systemCall("read", path: path) {
                chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            }
            if count == 0 { break }
            bytes += chunk[..<count]
            if bytes.count > limit { throw SystemError("read", path: path, errno: EFBIG) }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Replaces the file's text (written beside it, then renamed over it); makes the folders it lacks.
    public static func replace(_ path: String, with text: String) throws(SystemError) {
        let temporary = try writeTemporary(text, beside: path)
        do {
            try systemCall("rename", path: path) { rename(temporary, path) }
        } catch {
            unlink(temporary)
            throw error
        }
    }

    /// Writes `text` at `path` only when no file is there; returns the text the file holds afterwards (the
    /// one written, or the one another process wrote first), so that two runs starting at once agree.
    public static func create(_ text: String, at path: String) throws(SystemError) -> String {
        let temporary = try writeTemporary(text, beside: path)
        defer { unlink(temporary) }
        do {
            try systemCall("link", path: path) { link(temporary, path) }
            return text
        } catch where error.errno == EEXIST {
            return try Self.text(at: path) ?? text
        }
    }

    /// Makes `folder` and its missing parents, each new one mode 0700.
    public static func makeFolders(_ folder: String) throws(SystemError) {
        var current = folder.hasPrefix("/") ? "" : "."
        for part in folder.split(separator: "/") {
            current += "/" + part
            do {
                try systemCall("mkdir", path: current) { mkdir(current, 0o700) }
            } catch where error.errno == EEXIST {
                continue
            }
        }
    }

    private static func writeTemporary(_ text: String, beside path: String) throws(SystemError) -> String {
        let folder = LocalDisk.parentFolder(of: path)
        try makeFolders(folder)
        var template = Array("\(path).XXXXXX".utf8CString)
        let descriptor = try systemCall("mkstemp", path: path) {
            template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        defer { close(descriptor) }
        do {
            try systemCall("fchmod", path: temporary) { fchmod(descriptor, 0o600) }
            var bytes = Array(text.utf8)[...]
            while !bytes.isEmpty {
                let written = try systemCall("write", path: temporary) {
                    bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
                }
                bytes = bytes.dropFirst(written)
            }
            try systemCall("fsync", path: temporary) { fsync(descriptor) }
        } catch {
            unlink(temporary)
            throw error
        }
        return temporary
    }
}
