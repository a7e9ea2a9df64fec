import CommandKit
import MediaFormats
import MediaManager
import TerminalGraphics
import TerminalKit
import Thumbnails
import Words

/// Thumbnails in the terminal, shared by `thumb`, `ls --thumbs` and the picture beside `info`: fetched through
/// the session's thumbnail queue (one request at a time, in order) and drawn as they arrive (see
/// `ThumbnailPresenter`), or a line of text per file when pictures are off.
extension CommandContext {
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

    /// `ls --thumbs`: a contact sheet of the photos and videos among `entries` (folders and sidecars left out).
    func contactSheet(of entries: [RemoteEntry]) throws -> CommandOutcome {
        let session = try requireCamera()
        let files = entries.compactMap { entry -> MediaFile? in
            guard !entry.isFolder, let file = entry.file, file.kind.isImage || file.kind.isVideo, !file.kind.isSidecar
            else { return nil }
            return file
        }
        guard !files.isEmpty else {
            output.line("no photos or videos to draw")
            return .success
        }
        try requireThumbnails(session)
        return showThumbnails(
            of: files, session: session, command: "ls", tileColumns: ThumbnailPresenter.sheetTileColumns,
            explainMissing: false)
    }

    /// Prints `info`'s lines, with the file's thumbnail drawn to their left when pictures are on. A thumbnail
    /// that cannot be had leaves the text alone (a damaged one says so in a warning).
    func printDetails(_ lines: [String], of file: MediaFile, session: MediaSession) -> CommandOutcome {
        let presenter = thumbnailPresenter()
        let summary = session.camera.summary
        guard presenter.drawsPictures, summary.hasThumbnails || summary.canReadRanges else {
            for line in lines { output.line(line) }
            return .success
        }
        let renderer = TerminalImageRenderer(method: presenter.method)
        let columns = min(ThumbnailPresenter.besideColumns, max(presenter.columns / 3, 1))
        let maxRows = (columns * 3 + 7) / 8
        var image: RenderedImage?
        let outcome = eachThumbnail(of: [file], session: session, command: "info", wantsOrientation: true) {
            _, _, result in
            guard case .success(let thumbnail) = result else { return }
            do {
                let picture = try presenter.picture(thumbnail, fitting: renderer.pixelBox(columns: columns, maxRows: maxRows))
                image = renderer.render(picture, columns: columns, maxRows: maxRows)
            } catch {
                report("info: \(SafeText.display(file.name)): the thumbnail cannot be shown: \(error)", severity: .warning)
            }
        }
        switch outcome {
        case .success:
            output.write(BesideLayout.render(image, lines: lines, terminalColumns: presenter.columns))
        case .interrupted:
            for line in lines { output.line(line) }
        case .failed:
            break
        }
        return outcome
    }

    /// Draws the thumbnails of `files` row by row, each row as soon as its thumbnails arrived; or a line per
    /// file when pictures are off. A thumbnail that cannot be fetched or decoded is one error line (its tile
    /// says so) and the others are still drawn; the command then fails. A file without any thumbnail is not
    /// a failure: its tile says "no thumbnail" (and with `explainMissing`, a notice says why).
    func showThumbnails(
        of files: [MediaFile], session: MediaSession, command: String, tileColumns: Int, explainMissing: Bool
    ) -> CommandOutcome {
        let presenter = thumbnailPresenter()
        var failures = 0
        func fail(_ file: MediaFile, _ error: Error) {
            failures += 1
            report("\(command): \(SafeText.display(file.name)): \(Interpreter.message(for: error))" + modeHint(for: error))
        }
        guard presenter.drawsPictures else {
            let outcome = eachThumbnail(of: files, session: session, command: command, wantsOrientation: false) {
                _, file, result in
                switch result {
                case .success(let thumbnail): output.line(presenter.describe(thumbnail, of: file))
                case .failure(let none as NoThumbnail): output.line(presenter.describe(none, of: file))
                case .failure(let error): fail(file, error)
                }
            }
            return outcome == .success ? .failed(if: failures) : outcome
        }

        let sheet = presenter.sheet(tileColumns: tileColumns)
        var row: [ContactSheet.Item] = []
        let outcome = eachThumbnail(of: files, session: session, command: command, wantsOrientation: true) {
            _, file, result in
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
        guard outcome == .success else { return outcome }
        if !row.isEmpty { output.write(sheet.render(row: row)) }
        return .failed(if: failures)
    }
}
