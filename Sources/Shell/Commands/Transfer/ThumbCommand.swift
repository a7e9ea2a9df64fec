import CommandKit
import Foundation
import Imaging
import MediaManager
import POSIX
import TerminalKit
import Thumbnails
import Words

/// thumb [--save DIR] [--force] [NAME|GLOB...]: draws the thumbnails of the named files (or the selection)
/// as they arrive from the session's thumbnail queue, or with --save writes them as NAME.thumb.jpg files.
/// With no NAME while the selected video is paused, the picture of the frame it is paused on.
struct ThumbCommand: ShellCommand {
    let spec = CommandSpec(
        "thumb", area: .transfer,
        options: [
            OptionSpec(.save, long: "save", value: ArgumentSpec("DIR", .localFolder), "write each thumbnail into DIR"),
            OptionSpec(.force, long: "force", "overwrite thumbnails already saved"),
        ],
        arguments: [ArgumentSpec("NAME|GLOB", .remoteName, .zeroOrMore)],
        summary: "show thumbnails",
        details: """
            Draws the thumbnail of each named file, or of the selected file, with its name under it, several to \
            a row when they fit (the file itself is not downloaded). A video without one of its own shows its \
            .THM sidecar or the first frame of its .LRF proxy (decoded by ffmpeg, when installed). On a \
            terminal the picture uses its image protocol (kitty, iTerm2) or colour half blocks (see `set \
            images`); otherwise a line per file gives the thumbnail's size. With --save DIR, writes them as \
            NAME.thumb.jpg instead. With no NAME while the selected video is paused, it shows the frame it is \
            paused on, that frame itself (ffmpeg decodes it from the keyframe before it); --save writes it as \
            NAME.frameN.jpg.
            """,
        examples: ["thumb DJI_0001.JPG", "thumb *.MP4", "thumb --save ~/thumbs *.JPG"])

    func run(_ invocation: Invocation, in shell: any PlaybackContext) throws -> CommandOutcome {
        let session = try shell.requireCamera()
        if invocation.arguments.isEmpty, let frame = shell.pausedFrame {
            return try show(frame, session: session, invocation, shell)
        }
        let catalog = try shell.loadedCatalog()
        let files = try shell.files(for: invocation.arguments, catalog: catalog)
        try shell.requireThumbnails(session)
        if let folder = invocation.value(of: .save) {
            return try save(
                files, session: session, into: LocalDisk.expandingTilde(folder.text),
                overwrite: invocation.has(.force), shell)
        }
        return shell.pictures.showThumbnails(
            of: files, session: session, command: "thumb", tileColumns: ThumbnailPresenter.thumbTileColumns,
            explainMissing: true)
    }

    /// A bare `thumb` while the selected video is paused: the paused frame's own picture, drawn titled with
    /// its number and time (the prompt names the video), or with --save written as NAME.frameN.jpg.
    private func show(
        _ frame: PausedFrame, session: MediaSession, _ invocation: Invocation, _ shell: any PlaybackContext
    ) throws -> CommandOutcome {
        let thumbnail = try shell.picture(of: frame, session: session)
        guard let folder = invocation.value(of: .save) else {
            return shell.pictures.showPicture(thumbnail, of: frame.file, title: frame.words, command: "thumb")
        }
        let folderPath = LocalDisk.expandingTilde(folder.text)
        try Self.makeFolder(folderPath)
        let path = LocalDisk.join(folderPath, frame.saveName)
        try Self.write(thumbnail.jpeg, to: path, overwrite: invocation.has(.force))
        shell.output.note(shell.pictures.presenter.describe(thumbnail, of: frame.file) + " -> \(SafeText.display(path))")
        return .success
    }

    /// `thumb --save DIR`: writes each thumbnail as NAME.thumb.jpg (never over a file without `overwrite`)
    /// and prints a line per file.
    private func save(
        _ files: [MediaFile], session: MediaSession, into folder: String, overwrite: Bool, _ shell: any CommandContext
    ) throws -> CommandOutcome {
        try Self.makeFolder(folder)
        let presenter = shell.pictures.presenter
        let localNames = LocalFileName.uniqueNames(for: files.map { $0.name + ".thumb.jpg" })
        var failures = 0
        // Saved files are upright: the EXIF orientation is looked up and applied to the pixels.
        let outcome = shell.pictures.eachThumbnail(of: files, session: session, command: "thumb", wantsOrientation: true) {
            index, file, result in
            let name = SafeText.display(file.name)
            switch result {
            case .success(let thumbnail):
                let path = LocalDisk.join(folder, localNames[index])
                do {
                    let upright = try UprightJPEG.make(thumbnail.jpeg, exifOrientation: thumbnail.orientation)
                    try Self.write(upright, to: path, overwrite: overwrite)
                    shell.output.note(presenter.describe(thumbnail, of: file) + " -> \(SafeText.display(path))")
                } catch {
                    failures += 1
                    shell.report("thumb: \(name): \(Interpreter.message(for: error))")
                }
            case .failure(let none as NoThumbnail):
                shell.output.note(presenter.describe(none, of: file))
            case .failure(let error):
                failures += 1
                shell.report("thumb: \(name): \(Interpreter.message(for: error))" + shell.modeHint(for: error))
            }
        }
        return outcome == .success ? .failed(if: failures) : outcome
    }

    /// Makes `folder` (and its parents) unless it is there; refuses a file in its place.
    private static func makeFolder(_ folder: String) throws {
        if LocalDisk.exists(folder) && !LocalDisk.isDirectory(folder) {
            throw CommandError("\(SafeText.display(folder)) is not a folder")
        }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw CommandError("cannot create \(SafeText.display(folder)): \(error.localizedDescription)")
        }
    }

    /// Writes a thumbnail; an existing file stays unless `overwrite`.
    private static func write(_ bytes: [UInt8], to path: String, overwrite: Bool) throws {
        if LocalDisk.exists(path) && !overwrite {
            throw CommandError("\(SafeText.display(path)) exists (use --force to overwrite)")
        }
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw CommandError("cannot write \(SafeText.display(path)): \(error.localizedDescription)")
        }
    }
}
