import CommandKit
import MediaFormats
import MediaManager
import TerminalKit
import Words

extension CommandContext {
    /// Thumbnails drawn in this shell's output (`ThumbnailDrawing`).
    var pictures: ThumbnailDrawing { ThumbnailDrawing(host: CommandHost(self)) }

    /// Refuses a camera that can give no thumbnails at all (no GetThumb, and no partial reads for fallbacks).
    func requireThumbnails(_ session: MediaSession) throws {
        let summary = session.camera.summary
        guard summary.hasThumbnails || summary.canReadRanges else {
            throw CommandError("this camera does not give thumbnails")
        }
    }

    /// `ls --thumbs`: a contact sheet of the photos and videos among `entries` (folders and sidecars left out).
    func contactSheet(of entries: [RemoteEntry]) throws -> CommandOutcome {
        let session = try requireCamera()
        let files = entries.compactMap { entry -> MediaFile? in
            guard !entry.isFolder, let file = entry.file, file.kind.isImage || file.kind.isVideo, !file.kind.isSidecar
            else { return nil }
            return file
        }
        guard !files.isEmpty else {
            output.note("no photos or videos to draw")
            return .success
        }
        try requireThumbnails(session)
        return pictures.showThumbnails(
            of: files, session: session, command: "ls", minimumTile: ThumbnailPresenter.sheetTileColumns,
            explainMissing: false)
    }
}
