import Foundation
import PTP

/// Random access to one object's bytes.
public protocol ContentReader: AnyObject {
    var length: UInt64 { get }
    /// Fills `buffer` from `offset`; returns fewer bytes only at the end.
    func read(at offset: UInt64, into buffer: UnsafeMutableRawBufferPointer) throws -> Int
}

final class FileContentReader: ContentReader {
    let fd: Int32
    let length: UInt64

    init(fd: Int32) {
        self.fd = fd
        length = CardFileSystem.size(fd)
    }

    deinit { CardFileSystem.closeFile(fd) }

    func read(at offset: UInt64, into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        var done = 0
        while done < buffer.count {
            let n = try CardFileSystem.read(
                fd, into: UnsafeMutableRawBufferPointer(rebasing: buffer[done...]), at: offset + UInt64(done))
            if n == 0 { break }
            done += n
        }
        return done
    }
}

final class MemoryContentReader: ContentReader {
    let bytes: [UInt8]
    init(_ bytes: [UInt8]) { self.bytes = bytes }
    var length: UInt64 { UInt64(bytes.count) }

    func read(at offset: UInt64, into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard offset < length else { return 0 }
        let count = min(buffer.count, bytes.count - Int(offset))
        bytes.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + Int(offset), byteCount: count) }
        return count
    }
}

final class GeneratedContentReader: ContentReader {
    let length: UInt64
    init(length: UInt64) { self.length = length }

    func read(at offset: UInt64, into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard offset < length else { return 0 }
        let count = Int(min(UInt64(buffer.count), length - offset))
        fillGenerated(UnsafeMutableRawBufferPointer(rebasing: buffer[0..<count]), from: offset)
        return count
    }
}

/// A data phase of `length` bytes read from `offset` of an object.
final class ContentDataSource: DataSource {
    let reader: ContentReader
    let length: UInt64
    private var position: UInt64

    init(_ reader: ContentReader, offset: UInt64, length: UInt64) {
        self.reader = reader
        self.position = offset
        self.length = length
        self.end = offset + length
    }
    private let end: UInt64

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let want = Int(min(UInt64(buffer.count), end - position))
        guard want > 0 else { return 0 }
        let n = try reader.read(at: position, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<want]))
        // A file that shrank while being sent: pad with zeros so the announced length holds;
        // the next listing shows the new size.
        if n < want { for i in n..<want { buffer[i] = 0 } }
        position += UInt64(want)
        return want
    }
}
