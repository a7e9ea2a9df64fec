import Foundation
import POSIX
import PTP

/// A local file as the data phase of SendObject, read in pieces (memory stays flat for any size), with
/// the bytes sent so far reported after each piece and a cancellation checked before each one.
public final class LocalFileSource: DataSource {
    public let length: UInt64
    private let handle: FileHandle
    private let path: String
    private var sent: UInt64 = 0
    private let progress: ((UInt64) -> Void)?
    private let cancellation: Cancellation?

    public init(path: String, progress: ((UInt64) -> Void)? = nil, cancellation: Cancellation? = nil) throws {
        let descriptor = try systemCall(.open, path: path) { open(path, O_RDONLY | O_CLOEXEC) }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.uint64Value ?? 0
        self.handle = handle
        self.path = path
        length = size
        self.progress = progress
        self.cancellation = cancellation
    }

    deinit { try? handle.close() }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        if cancellation?.isCancelled == true { throw CancellationError() }
        let want = Int(min(UInt64(buffer.count), length - sent))
        guard want > 0 else { return 0 }
        guard let data = try handle.read(upToCount: want), !data.isEmpty else {
            throw SystemError(.read, path: path, errno: EIO, detail: "ended after \(sent) of \(length) bytes (it changed while being sent)")
        }
        data.copyBytes(to: buffer.bindMemory(to: UInt8.self), count: data.count)
        sent += UInt64(data.count)
        progress?(sent)
        return data.count
    }
}
