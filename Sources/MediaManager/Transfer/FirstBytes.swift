import PTP

/// The first bytes of a file, read before the file has its place: an import takes the date that places it
/// from them (a JPEG's EXIF), and the download writes them as they are (`DownloadJob.Options.firstBytes`),
/// so they cross the link once. One request, sized as the download's first request would be: a file that
/// fits it comes whole.
public struct FirstBytes: Sendable {
    public let bytes: [UInt8]

    public init(bytes: [UInt8]) { self.bytes = bytes }

    public static func read(_ file: MediaFile, camera: Camera, chunkSize: Int, sizing: ChunkSizing?) throws -> FirstBytes {
        let chunk = sizing.map { min($0.nextSize, chunkSize) } ?? chunkSize
        let want = Int(min(UInt64(max(chunk, 1)), file.size))
        guard want > 0 else { return FirstBytes(bytes: []) }
        let sink = BufferSink(limit: want)
        if let sizing {
            _ = try sizing.measure { try camera.read(file, offset: 0, count: want, into: sink) }
        } else {
            _ = try camera.read(file, offset: 0, count: want, into: sink)
        }
        return FirstBytes(bytes: sink.bytes)
    }
}
