#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import MediaFormats
import POSIX

/// A local file read with POSIX `pread`, which takes its own offset, so one open file serves reads from any
/// thread. The length is taken when the file is opened.
public final class FileByteSource: ByteRangeSource, Sendable {
    private let descriptor: Int32
    /// The file's size when it was opened.
    public let length: UInt64
    /// The path the file was opened from, for messages.
    public let path: String

    /// Opens `path` for reading; throws an `.io` error naming the path if it cannot be opened.
    public init(path: String) throws {
        let fd: Int32
        do throws(SystemError) {
            fd = try systemCall(.open, path: path) { open(path, O_RDONLY | O_CLOEXEC) }
        } catch {
            throw MediaFormatError(.system(error))
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let error = MediaFormatError(.system(SystemError("fstat", path: path, errno: errno)))
            close(fd)
            throw error
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw MediaFormatError(.notRegularFile(path: path))
        }
        descriptor = fd
        length = UInt64(info.st_size)
        self.path = path
    }

    deinit {
        close(descriptor)
    }

    public func read(offset: UInt64, count: Int) throws -> [UInt8] {
        let wanted = try clampedReadCount(offset: offset, count: count, length: length)
        guard wanted > 0 else { return [] }
        var buffer = [UInt8](repeating: 0, count: wanted)
        var filled = 0
        try buffer.withUnsafeMutableBytes { raw in
            while filled < wanted {
                let result: Int
                do throws(SystemError) {
                    result = try systemCall(.read, path: path) {
                        pread(descriptor, raw.baseAddress! + filled, wanted - filled, off_t(offset) + off_t(filled))
                    }
                } catch {
                    throw MediaFormatError(.system(error))
                }
                if result == 0 { break }  // The file shrank since it was opened.
                filled += result
            }
        }
        if filled < wanted { buffer.removeLast(wanted - filled) }
        return buffer
    }

}
