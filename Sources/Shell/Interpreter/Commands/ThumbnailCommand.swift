import Foundation
import Imaging
import MediaManager
import TerminalGraphics

/// thumb, `ls --thumbs` and the picture beside `info`: thumbnails fetched through the session's thumbnail
/// queue (one request at a time, in order) and drawn as they arrive (see `ThumbnailPresenter`), or with
/// `thumb --save DIR` written as JPEG files.
extension Interpreter {
    func thumbnails(_ invocation: Invocation) throws {
        let session = try requireCamera()
        let catalog = try loadedCatalog()
        let files = try files(for: invocation.arguments, catalog: catalog)
        try requireThumbnails(session)
        if let folder = invocation.value(of: .save) {
            try saveThumbnails(of: files, session: session, into: LocalDisk.expandingTilde(folder.text), overwrite: invocation.has(.force))
        } else {
            try showThumbnails(
                of: files, session: session, command: "thumb", tileColumns: ThumbnailPresenter.thumbTileColumns,
                explainMissing: true)
        }
    }

    /// `ls --thumbs`: a contact sheet of the photos and videos among `entries` (folders and sidecars left out).
    func contactSheet(of entries: [RemoteEntry]) throws {
        let session = try requireCamera()
        let files = entries.compactMap { entry -> MediaFile? in
            guard !entry.isFolder, let file = entry.file, file.kind.isImage || file.kind.isVideo, !file.kind.isSidecar
            else { return nil }
            return file
        }
        guard !files.isEmpty else {
            output.line("no photos or videos to draw")
            return
        }
        try requireThumbnails(session)
        try showThumbnails(
            of: files, session: session, command: "ls", tileColumns: ThumbnailPresenter.sheetTileColumns,
            explainMissing: false)
    }

    /// Prints `info`'s lines, with the file's thumbnail drawn to their left when pictures are on. A thumbnail
    /// that cannot be had leaves the text alone (a damaged one says so in a warning).
    func printDetails(_ lines: [String], of file: MediaFile, session: MediaSession) throws {
        let presenter = thumbnailPresenter()
        let summary = session.camera.summary
        guard presenter.drawsPictures, summary.hasThumbnails || summary.canReadRanges else {
            for line in lines { output.line(line) }
            return
        }
        let renderer = TerminalImageRenderer(method: presenter.method)
        let columns = min(ThumbnailPresenter.besideColumns, max(presenter.columns / 3, 1))
        let maxRows = (columns * 3 + 7) / 8
        var image: RenderedImage?
        do {
            try eachThumbnail(of: [file], session: session, command: "info", wantsOrientation: true) { _, _, result in
                guard case .success(let thumbnail) = result else { return }
                do {
                    let picture = try presenter.picture(thumbnail, fitting: renderer.pixelBox(columns: columns, maxRows: maxRows))
                    image = renderer.render(picture, columns: columns, maxRows: maxRows)
                } catch {
                    report("info: \(SafeText.display(file.name)): the thumbnail cannot be shown: \(error)", severity: .warning)
                }
            }
        } catch is CommandInterrupted {
            for line in lines { output.line(line) }
            throw CommandInterrupted()
        }
        output.write(BesideLayout.render(image, lines: lines, terminalColumns: presenter.columns))
    }

    // MARK: - Drawing and saving

    /// Draws the thumbnails of `files` row by row, each row as soon as its thumbnails arrived; or a line per
    /// file when pictures are off. A thumbnail that cannot be fetched or decoded is one error line (its tile
    /// says so) and the others are still drawn; the command then fails. A file without any thumbnail is not
    /// a failure: its tile says "no thumbnail" (and with `explainMissing`, a notice says why).
    func showThumbnails(
        of files: [MediaFile], session: MediaSession, command: String, tileColumns: Int, explainMissing: Bool
    ) throws {
        let presenter = thumbnailPresenter()
        var failures = 0
        func fail(_ file: MediaFile, _ error: Error) {
            failures += 1
            report("\(command): \(SafeText.display(file.name)): \(Self.message(for: error))" + modeHint(for: error))
        }
        guard presenter.drawsPictures else {
            try eachThumbnail(of: files, session: session, command: command, wantsOrientation: false) { _, file, result in
                switch result {
                case .success(let thumbnail): output.line(presenter.describe(thumbnail, of: file))
                case .failure(let none as NoThumbnail): output.line(presenter.describe(none, of: file))
                case .failure(let error): fail(file, error)
                }
            }
            if failures > 0 { throw FailureReported() }
            return
        }

        let sheet = presenter.sheet(tileColumns: tileColumns)
        var row: [ContactSheet.Item] = []
        try eachThumbnail(of: files, session: session, command: command, wantsOrientation: true) { _, file, result in
            var item = ContactSheet.Item(name: file.name, picture: nil)
            switch result {
            case .success(let thumbnail):
                do {
                    let picture = try presenter.picture(thumbnail, fitting: sheet.pixelBox)
                    item.picture = picture
                    if let warning = picture.warning {
                        report("\(command): \(SafeText.display(file.name)): \(warning)", severity: .warning)
                    }
                } catch {
                    fail(file, CommandError("the thumbnail cannot be shown: \(error)"))
                    item.note = "unreadable"
                }
            case .failure(let none as NoThumbnail):
                item.note = "no thumbnail"
                if explainMissing { report(presenter.describe(none, of: file), severity: .notice) }
            case .failure(let error):
                fail(file, error)
                item.note = "no thumbnail"
            }
            row.append(item)
            if row.count == sheet.perRow {
                output.write(sheet.render(row: row))
                row.removeAll()
            }
        }
        if !row.isEmpty { output.write(sheet.render(row: row)) }
        if failures > 0 { throw FailureReported() }
    }

    /// `thumb --save DIR`: writes each thumbnail as NAME.thumb.jpg (never over a file without `overwrite`)
    /// and prints a line per file.
    func saveThumbnails(of files: [MediaFile], session: MediaSession, into folder: String, overwrite: Bool) throws {
        if LocalDisk.exists(folder) && !LocalDisk.isFolder(folder) {
            throw CommandError("\(SafeText.display(folder)) is not a folder")
        }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw CommandError("cannot create \(SafeText.display(folder)): \(error.localizedDescription)")
        }
        let presenter = thumbnailPresenter()
        let localNames = LocalFileName.uniqueNames(for: files.map { $0.name + ".thumb.jpg" })
        var failures = 0
        // Saved files are upright: the EXIF orientation is looked up and applied to the pixels.
        try eachThumbnail(of: files, session: session, command: "thumb", wantsOrientation: true) { index, file, result in
            let name = SafeText.display(file.name)
            switch result {
            case .success(let thumbnail):
                let path = LocalDisk.join(folder, localNames[index])
                do {
                    let upright = try UprightJPEG.make(thumbnail.jpeg, exifOrientation: thumbnail.orientation)
                    try Self.save(upright, to: path, overwrite: overwrite)
                    output.line(presenter.describe(thumbnail, of: file) + " -> \(SafeText.display(path))")
                } catch {
                    failures += 1
                    report("thumb: \(name): \(Self.message(for: error))")
                }
            case .failure(let none as NoThumbnail):
                output.line(presenter.describe(none, of: file))
            case .failure(let error):
                failures += 1
                report("thumb: \(name): \(Self.message(for: error))" + modeHint(for: error))
            }
        }
        if failures > 0 { throw FailureReported() }
    }

    /// Writes a thumbnail; an existing file stays unless `overwrite`.
    static func save(_ bytes: [UInt8], to path: String, overwrite: Bool) throws {
        if LocalDisk.exists(path) && !overwrite {
            throw CommandError("\(SafeText.display(path)) exists (use --force to overwrite)")
        }
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw CommandError("cannot write \(SafeText.display(path)): \(error.localizedDescription)")
        }
    }

    // MARK: - Fetching

    /// How pictures are drawn now: the `images` setting, the environment and whether output is a terminal.
    func thumbnailPresenter() -> ThumbnailPresenter {
        ThumbnailPresenter(mode: state.settings.images, environment: environment, terminalColumns: output.terminalColumns)
    }

    /// Refuses a camera that can give no thumbnails at all (no GetThumb, and no partial reads for fallbacks).
    func requireThumbnails(_ session: MediaSession) throws {
        let summary = session.camera.summary
        guard summary.hasThumbnails || summary.canReadRanges else {
            throw CommandError("this camera does not give thumbnails")
        }
    }

    /// Queues the thumbnails of `files` (each once) on the session's thumbnail queue, all at once, and hands
    /// them to `body` in order as they arrive: `body` gets the position among the files, the file and its
    /// thumbnail or why there is none (see `ThumbnailResolver`). Ctrl-C cancels what is still queued (and a
    /// running ffmpeg), says so and throws `CommandInterrupted`; a camera that went away is reported and
    /// closed (`FailureReported`).
    func eachThumbnail(
        of files: [MediaFile], session: MediaSession, command: String, wantsOrientation: Bool,
        _ body: (Int, MediaFile, Result<Thumbnail, Error>) throws -> Void
    ) throws {
        var seen = Set<UInt32>()
        let files = files.filter { seen.insert($0.id).inserted }
        let cancellation = CancellationFlag()
        var resolver = ThumbnailResolver(
            session: session, keyframes: KeyframeDecoder.find(environment: environment), cancellation: cancellation)
        resolver.wantsOrientation = wantsOrientation
        let arrivals = ThumbnailArrivals()
        for file in files {
            session.thumbnails.enqueue(file.id) { [resolver] id, result in
                arrivals.deliver(id, resolver.resolve(file, device: result))
            }
        }
        func stop() {
            cancellation.cancel()
            session.thumbnails.cancelAll()
        }
        for (index, file) in files.enumerated() {
            // Asked before each file, not only while waiting: thumbnails that are already in must not keep a
            // sheet drawing after Ctrl-C.
            guard !interrupt.isPending, let result = arrivals.take(file.id, interrupt: interrupt) else {
                stop()
                report("\(command): interrupted", severity: .notice)
                throw CommandInterrupted()
            }
            if case .failure(let error) = result, Self.isDisconnect(error) {
                stop()
                reportFailure(of: command, error)
                throw FailureReported()
            }
            do {
                try body(index, file, result)
            } catch {
                stop()
                throw error
            }
        }
    }
}

/// Thumbnails arriving from the queue's worker thread, waited for in order on the shell's thread.
final class ThumbnailArrivals: @unchecked Sendable {
    private let condition = NSCondition()
    private var results: [UInt32: Result<Thumbnail, Error>] = [:]

    func deliver(_ id: UInt32, _ result: Result<Thumbnail, Error>) {
        condition.lock()
        results[id] = result
        condition.broadcast()
        condition.unlock()
    }

    /// The thumbnail of `id` once it arrived (forgotten here, so a sheet of hundreds does not keep them all),
    /// or nil when Ctrl-C came first.
    func take(_ id: UInt32, interrupt: any InterruptSource) -> Result<Thumbnail, Error>? {
        condition.lock()
        defer { condition.unlock() }
        while results[id] == nil {
            if interrupt.isPending { return nil }
            // Woken by each arrival; the bound is only so that Ctrl-C is noticed.
            _ = condition.wait(until: Date(timeIntervalSinceNow: 0.05))
        }
        return results.removeValue(forKey: id)
    }
}
