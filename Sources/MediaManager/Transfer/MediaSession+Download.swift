extension MediaSession {
    /// The download of `file` into `path`, as every batch of this camera makes it (fetch, a fetch job, an
    /// import): the object its `.part`'s record names, whole-file reads where the camera cannot read part
    /// of one, requests of `chunkSize` (sized from the link's rate with `sizing`), the first bytes already
    /// read, and the name found free a moment ago (`replacing` false) or a different file replaced. The
    /// caller adds what only it knows: the modification time, a `startOffset`.
    public func downloadJob(
        _ file: MediaFile, to path: String, replacing: Bool, chunkSize: Int, sizing: ChunkSizing?, firstBytes: [UInt8]
    ) -> DownloadJob {
        var options = DownloadJob.Options()
        options.overwrite = replacing
        // The placement found the name free; the rename still never replaces a file that appeared meanwhile.
        options.nameFound = !replacing
        options.chunkSize = chunkSize
        options.chunkSizing = sizing
        options.wholeFile = !camera.canReadRanges
        options.firstBytes = firstBytes
        let slash = path.lastIndex(of: "/")
        return DownloadJob(
            remoteName: file.name, size: file.size,
            destinationFolder: slash.map { String(path[..<$0]) } ?? ".",
            localName: slash.map { String(path[path.index(after: $0)...]) } ?? path, options: options,
            source: partSource(file))
    }
}
