import Foundation

/// A fresh folder under the system's temporary folder, removed when this value goes away. Each has a
/// unique name, so tests running in parallel (this suite's and other checkouts') never share one.
public final class TemporaryFolder: Sendable {
    public let path: String

    public init(_ label: String = "mediashell-test") throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("\(label)-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    public var url: URL { URL(fileURLWithPath: path) }

    /// The absolute path of `relative` inside the folder.
    public func path(_ relative: String) -> String { path + "/" + relative }

    /// Writes `bytes` at `relative`, creating folders; returns the file's path.
    @discardableResult
    public func write(_ relative: String, _ bytes: [UInt8]) throws -> String {
        try writeFile(path(relative), bytes)
    }

    @discardableResult
    public func write(_ relative: String, text: String) throws -> String { try write(relative, Array(text.utf8)) }

    public func read(_ relative: String) -> [UInt8]? {
        (try? Data(contentsOf: URL(fileURLWithPath: path(relative)))).map { [UInt8]($0) }
    }

    public func exists(_ relative: String) -> Bool { FileManager.default.fileExists(atPath: path(relative)) }
}

/// Writes `bytes` to `path`, creating its folders. The file is opened close-on-exec: a child another test
/// starts meanwhile must not keep it open for writing (a script written here could not then run: ETXTBSY).
@discardableResult
public func writeFile(_ path: String, _ bytes: [UInt8]) throws -> String {
    let url = URL(fileURLWithPath: path)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    let fd = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path]) }
    defer { close(fd) }
    var done = 0
    while done < bytes.count {
        let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + done, bytes.count - done) }
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path]) }
        done += n
    }
    return url.path
}

/// The size of the file at `path` in bytes, 0 when there is none (a `.part` not yet made).
public func fileSize(_ path: String) -> UInt64 {
    ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.uint64Value ?? 0
}
