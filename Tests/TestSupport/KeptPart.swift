import Checksums
import Foundation
import MediaManager
import POSIX

/// Writes `bytes` as the `.part` at `path` with the record an interrupted download of `source` leaves
/// beside it (`PartRecord`): what an earlier run kept, proven to be the first bytes of that file.
/// `recordedBytes` (default: all) is how many of them the record covers.
public func writeKeptPart(_ bytes: [UInt8], at path: String, of source: PartRecord.Source, recordedBytes: Int? = nil) throws {
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    let covered = recordedBytes ?? bytes.count
    let hash = PartRecord.algorithm.makeHasher()
    hash.update(Array(bytes.prefix(covered)))
    let fd = try LocalDisk.openForWriting(path)
    defer { close(fd) }
    try PartRecordStore(partPath: path).store(PartRecord(source: source, bytes: UInt64(covered), checksum: hash.checksum()), fd)
}
