import Checksums
import POSIX
import PTP

/// A kept `.part` at the start of a download, and what is proven of it.
public struct PartProof {
    /// The bytes at the start of the `.part` that are the camera object's, and their hash (to be fed on);
    /// `restart` says why nothing of a non-empty `.part` was kept (nil: nothing there, or all of it kept).
    public var proven: UInt64
    public var hash: any ChecksumHasher
    public var restart: PartRestart?
    /// The bytes kept that were set aside (0 when nothing was).
    public var setAside: UInt64

    /// How many of the camera's bytes the check asks for, ending where the kept bytes end.
    public static let sampleBytes = 4096

    /// Checks the `.part` open as `fd` (`onDisk` bytes long) before `source` is continued into it: its
    /// record must name this object (`record`), its first `record.bytes` bytes must give the recorded
    /// checksum, and the camera's last `sampleBytes` of them (one request through `read`) must be the
    /// same. Proven bytes past `limit` (the shell's `offset`, a resume moved back) are not kept. Throws only
    /// for the camera's failure to answer that request, or the disk's to be read.
    public static func check(
        _ fd: Int32, path: String, onDisk: UInt64, record: PartRecord?, source: PartRecord.Source, limit: UInt64? = nil,
        read: RangeReader
    ) throws -> PartProof {
        let fresh = PartRecord.algorithm.makeHasher()
        func restart(_ why: PartRestart) -> PartProof { PartProof(proven: 0, hash: fresh, restart: why, setAside: onDisk) }
        guard onDisk > 0 else { return PartProof(proven: 0, hash: fresh, restart: nil, setAside: 0) }
        guard let record else { return restart(.noRecord) }
        let differences = record.source.differences(from: source)
        guard differences.isEmpty else { return restart(.otherObject(differences: differences)) }
        let kept = record.bytes
        guard kept <= onDisk, kept <= source.size else { return restart(.changedOnDisk) }
        guard kept > 0 else { return PartProof(proven: 0, hash: fresh, restart: nil, setAside: 0) }
        // The bytes on disk, hashed as they are now.
        let hash = PartRecord.algorithm.makeHasher()
        try DownloadError.onDisk { try LocalDisk.readRange(fd, path: path, from: 0, count: kept) { hash.update($0) } }
        guard hash.checksum().description == record.checksum else { return restart(.changedOnDisk) }
        // The camera's bytes where they end: one small request.
        let count = Int(min(UInt64(sampleBytes), kept))
        var local: [UInt8] = []
        local.reserveCapacity(count)
        try DownloadError.onDisk {
            try LocalDisk.readRange(fd, path: path, from: kept - UInt64(count), count: UInt64(count)) { local += $0 }
        }
        let camera = BufferSink(limit: count)
        _ = try read(kept - UInt64(count), count, camera)
        guard camera.bytes == local else { return restart(.cameraDiffers) }
        guard let limit, limit < kept else { return PartProof(proven: kept, hash: hash, restart: nil, setAside: 0) }
        // Moved back (`offset`): the hash of the bytes kept up to there.
        let shorter = PartRecord.algorithm.makeHasher()
        if limit > 0 {
            try DownloadError.onDisk { try LocalDisk.readRange(fd, path: path, from: 0, count: limit) { shorter.update($0) } }
        }
        return PartProof(proven: limit, hash: shorter, restart: nil, setAside: 0)
    }
}

extension PartRecord {
    /// The checksum a record keeps: the import's (XXH3-128), so that a proven `.part` primes its hash.
    public static let algorithm = Checksum.Algorithm.xxh128
}
