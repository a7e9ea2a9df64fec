import CommandKit
import Failures
import MediaFormats
import MediaManager
import POSIX
import TerminalGraphics
import TerminalKit
import Thumbnails
import Words

/// What drawing thumbnails needs of the program that shows them: where to draw and how (the `images`
/// setting, the environment), Ctrl-C, and how to report a failure.
public protocol PictureHost: AnyObject {
    var output: ShellOutput { get }
    var interrupt: any InterruptSource { get }
    var environment: [String: String] { get }
    /// How pictures are drawn: detected, forced, or off (`set images`).
    var imageMode: ImageMode { get }
    func report(_ message: String, severity: ReportSeverity)
    /// When a failure is the camera saying it is busy in shoot mode, how to get out of it; else "".
    func modeHint(for error: Error) -> String
    /// The camera went away during `command`: said with how to reconnect, and closed.
    func reportCameraGone(during command: String, _ error: Error)
}

extension PictureHost {
    func report(_ message: String) { report(message, severity: .error) }
}

/// Thumbnails in the terminal, shared by `thumb`, `ls --thumbs` and the picture beside `info`: fetched through
/// the session's thumbnail queue (one request at a time, in order) and drawn as they arrive (see
/// `ThumbnailPresenter`), or a line of text per file when pictures are off.
public struct ThumbnailDrawing {
    let host: any PictureHost

    public init(host: any PictureHost) {
        self.host = host
    }

    /// How pictures are drawn now: the `images` setting, the environment and whether output is a terminal.
    public var presenter: ThumbnailPresenter {
        ThumbnailPresenter(
            mode: host.imageMode, environment: host.environment, terminalColumns: host.output.terminalColumns,
            terminalRows: host.output.terminalRows, cellPixels: host.output.terminalCellPixels)
    }

    /// Prints `info`'s lines, with the file's thumbnail drawn to their left when pictures are on. A thumbnail
    /// that cannot be had leaves the text alone (a damaged one says so in a warning).
    public func printDetails(_ lines: [String], of file: MediaFile, session: MediaSession) -> CommandOutcome {
        let presenter = self.presenter
        let summary = session.camera.summary
        guard presenter.drawsPictures, summary.hasThumbnails || summary.canReadRanges else {
            for line in lines { host.output.note(line) }
            return .success
        }
        var renderer = TerminalImageRenderer(method: presenter.method)
        renderer.cellPixels = presenter.cellPixels
        let columns = min(ThumbnailPresenter.besideColumns, max(presenter.columns / 3, 1))
        let maxRows = PictureLayout.landscapeRows(columns: columns, cell: presenter.cellPixels)
        var image: RenderedImage?
        let outcome = eachThumbnail(of: [file], session: session, command: "info", wantsOrientation: true) {
            _, _, result in
            guard case .success(let thumbnail) = result else { return }
            do {
                let picture = try presenter.picture(thumbnail, fitting: renderer.pixelBox(columns: columns, maxRows: maxRows))
                image = renderer.render(picture, columns: columns, maxRows: maxRows)
            } catch {
                host.report("info: \(SafeText.display(file.name)): the thumbnail cannot be shown: \(error)", severity: .warning)
            }
        }
        switch outcome {
        case .success:
            host.output.write(BesideLayout.render(image, lines: lines, terminalColumns: presenter.columns))
        case .interrupted:
            for line in lines { host.output.note(line) }
        case .failed:
            break
        }
        return outcome
    }

    /// Draws the thumbnails of `files` row by row, each row as soon as its thumbnails arrived; or a line per
    /// file when pictures are off. A thumbnail that cannot be fetched or decoded is one error line (its tile
    /// says so) and the others are still drawn; the command then fails. A file without any thumbnail is not
    /// a failure: its tile says "no thumbnail" (and with `explainMissing`, a notice says why).
    public func showThumbnails(
        of files: [MediaFile], session: MediaSession, command: String, size: PictureLayout.Request = .fit,
        minimumTile: Int, explainMissing: Bool
    ) -> CommandOutcome {
        let presenter = self.presenter
        var failures = 0
        func fail(_ file: MediaFile, because why: String) {
            failures += 1
            host.report("\(command): \(SafeText.display(file.name)): \(why)")
        }
        func fail(_ file: MediaFile, _ error: Error) {
            fail(file, because: ErrorWords.sentence(for: error) + host.modeHint(for: error))
        }
        guard presenter.drawsPictures else {
            let outcome = eachThumbnail(of: files, session: session, command: command, wantsOrientation: false) {
                _, file, result in
                switch result {
                case .success(let thumbnail): host.output.line(presenter.describe(thumbnail, of: file))
                case .failure(let none as NoThumbnail): host.output.line(presenter.describe(none, of: file))
                case .failure(let error): fail(file, error)
                }
            }
            return outcome == .success ? .failed(if: failures) : outcome
        }

        let sheet = presenter.sheet(presenter.layout(size, count: files.count, minimumTile: minimumTile))
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
                        host.report("\(command): \(SafeText.display(file.name)): \(warning)", severity: .warning)
                    }
                } catch {
                    fail(file, because: "the thumbnail cannot be shown: \(error)")
                    item.note = "unreadable"
                }
            case .failure(let none as NoThumbnail):
                item.note = "no thumbnail"
                if explainMissing { host.report(presenter.describe(none, of: file), severity: .notice) }
            case .failure(let error):
                fail(file, error)
                item.note = "no thumbnail"
            }
            row.append(item)
            if row.count == sheet.perRow {
                host.output.write(sheet.render(row: row))
                row.removeAll()
            }
        }
        guard outcome == .success else { return outcome }
        if !row.isEmpty { host.output.write(sheet.render(row: row)) }
        return .failed(if: failures)
    }

    /// Draws one picture already at hand (the frame a video is paused on) as a `thumb` tile titled `title`, or
    /// its text line when pictures are off. A picture that cannot be decoded is an error line and `.failed`.
    public func showPicture(
        _ thumbnail: Thumbnail, of file: MediaFile, title: String, size: PictureLayout.Request = .fit, command: String
    ) -> CommandOutcome {
        let presenter = self.presenter
        guard presenter.drawsPictures else {
            host.output.line(presenter.describe(thumbnail, of: file))
            return .success
        }
        let sheet = presenter.sheet(presenter.layout(size, count: 1, minimumTile: ThumbnailPresenter.thumbTileColumns))
        do {
            let picture = try presenter.picture(thumbnail, fitting: sheet.pixelBox)
            host.output.write(sheet.render(row: [ContactSheet.Item(name: title, picture: picture)]))
            return .success
        } catch {
            host.report("\(command): \(SafeText.display(file.name)): the picture cannot be shown: \(error)")
            return .failed
        }
    }

    /// Hands the thumbnails of `files` (each once) to `body` in order as they arrive (`ThumbnailStream`):
    /// `body` gets the position among the files, the file and its thumbnail or why there is none. Ctrl-C
    /// cancels what is still queued (and a running ffmpeg), says so and ends `.interrupted`; a camera that
    /// went away is reported and closed (`.failed`).
    public func eachThumbnail(
        of files: [MediaFile], session: MediaSession, command: String, wantsOrientation: Bool,
        _ body: (Int, MediaFile, Result<Thumbnail, Error>) -> Void
    ) -> CommandOutcome {
        let stream = ThumbnailStream(
            of: files, session: session, keyframes: KeyframeDecoder.find(environment: host.environment),
            wantsOrientation: wantsOrientation)
        let interrupt = host.interrupt
        for (index, file) in stream.files.enumerated() {
            // Asked before each file, not only while waiting: thumbnails that are already in must not keep a
            // sheet drawing after Ctrl-C.
            guard !interrupt.isPending, let result = stream.take(file, cancellation: interrupt.cancellation) else {
                stream.cancel()
                host.report("\(command): interrupted", severity: .notice)
                return .interrupted
            }
            if case .failure(let error) = result, error.failureCategory == .disconnected {
                stream.cancel()
                host.reportCameraGone(during: command, error)
                return .failed
            }
            body(index, file, result)
        }
        return .success
    }
}
