import CommandKit
import Foundation
import Imaging
import MediaFormats
import MediaManager
import POSIX
import TerminalGraphics
import TerminalKit
import Thumbnails
import Words

/// thumb [--save DIR] [--force] [--size COLSxROWS | --width COLS] [--frames N] [NAME|GLOB...]: draws the
/// thumbnails of the named files (or the selection) as they arrive from the session's thumbnail queue, sized
/// to the terminal or as asked, or with --save writes them as NAME.thumb.jpg files. With no NAME while the
/// selected video is paused, the picture of the frame it is paused on.
struct ThumbCommand: ShellCommand {
    let spec = CommandSpec(
        "thumb", area: .transfer,
        options: [
            OptionSpec(.save, long: "save", value: ArgumentSpec("DIR", .localFolder), "write each thumbnail into DIR"),
            OptionSpec(.force, long: "force", "overwrite thumbnails already saved"),
            OptionSpec(
                .pictureSize, long: "size", value: ArgumentSpec("COLSxROWS", .text),
                "draw each picture in at most COLS x ROWS cells (60x20)"),
            OptionSpec(.pictureWidth, long: "width", value: ArgumentSpec("COLS", .integer), "draw each picture COLS cells wide"),
            OptionSpec(
                .frames, long: "frames", value: ArgumentSpec("N", .integer),
                "for a video, N pictures across the clip (1 to 16), each with its time"),
        ],
        arguments: [ArgumentSpec("NAME|GLOB", .remoteName, .zeroOrMore)],
        summary: "show thumbnails",
        details: """
            Draws the thumbnail of each named file, or of the selected file, with its name under it (the file \
            itself is not downloaded). The pictures fill the terminal: one alone takes its width (as high as the \
            terminal allows), several go as many to a row as fit at 24 columns or more, widened to fill the \
            row; --size and --width set the size instead. --frames N draws N pictures spread across each video, \
            each titled with its time (its keyframes, read from its .LRF proxy when there is one; needs ffmpeg). A video without one of its own shows its \
            .THM sidecar or the first frame of its .LRF proxy (decoded by ffmpeg, when installed). On a \
            terminal the picture uses its image protocol (kitty, iTerm2) or colour half blocks (see `set \
            images`); otherwise a line per file gives the thumbnail's size. With --save DIR, writes them as \
            NAME.thumb.jpg instead. With no NAME while the selected video is paused, it shows the frame it is \
            paused on, that frame itself (ffmpeg decodes it from the keyframe before it); --save writes it as \
            NAME.frameN.jpg.
            """,
        examples: ["thumb DJI_0001.JPG", "thumb *.MP4", "thumb --size 40x15 *.JPG", "thumb --frames 8 DJI_0003.MP4", "thumb --save ~/thumbs *.JPG"])

    func run(_ invocation: Invocation, in shell: any PlaybackContext) throws -> CommandOutcome {
        let session = try shell.requireCamera()
        if invocation.arguments.isEmpty, invocation.value(of: .frames) == nil, let frame = shell.pausedFrame {
            return try show(frame, session: session, invocation, shell)
        }
        let catalog = try shell.loadedCatalog()
        let files = try shell.files(for: invocation.arguments, catalog: catalog)
        try shell.requireThumbnails(session)
        let size = try Self.size(invocation)
        if let text = invocation.value(of: .frames)?.text {
            guard invocation.value(of: .save) == nil else { throw CommandError("--frames draws: no --save") }
            guard let count = Int(text), (1...MovieKeyframes.maxCount).contains(count) else {
                throw CommandError("--frames \(SafeText.display(text)): give a number of pictures from 1 to \(MovieKeyframes.maxCount)")
            }
            if let photo = files.first(where: { !$0.kind.isVideo }) {
                throw CommandError("--frames draws pictures across a video: \(SafeText.display(photo.name)) is not one")
            }
            guard session.camera.summary.canReadRanges else {
                throw CommandError("--frames reads the clip's keyframes, and this camera cannot read parts of a file")
            }
            return shell.pictures.showFrames(of: files, count: count, session: session, size: size, command: "thumb")
        }
        if let folder = invocation.value(of: .save) {
            guard size == .fit else { throw CommandError("--save writes the camera's thumbnails as they are: no --size or --width") }
            return try save(
                files, session: session, into: LocalDisk.expandingTilde(folder.text),
                overwrite: invocation.has(.force), shell)
        }
        return shell.pictures.showThumbnails(
            of: files, session: session, command: "thumb", size: size, minimumTile: ThumbnailPresenter.thumbTileColumns,
            explainMissing: true)
    }

    /// The size `--size COLSxROWS` or `--width COLS` asks for; `.fit` without them.
    static func size(_ invocation: Invocation) throws -> PictureLayout.Request {
        if invocation.value(of: .pictureSize) != nil && invocation.value(of: .pictureWidth) != nil {
            throw CommandError("--size and --width: give one of them")
        }
        if let text = invocation.value(of: .pictureSize)?.text {
            guard let size = PictureLayout.size(parsing: text) else {
                throw CommandError("--size \(SafeText.display(text)): give COLSxROWS in cells, such as 60x20 (1 to 1000 each)")
            }
            return size
        }
        if let text = invocation.value(of: .pictureWidth)?.text {
            guard let columns = Int(text), (1...1000).contains(columns) else {
                throw CommandError("--width \(SafeText.display(text)): give a number of columns from 1 to 1000")
            }
            return .width(columns)
        }
        return .fit
    }

    /// A bare `thumb` while the selected video is paused: the paused frame's own picture, drawn titled with
    /// its number and time (the prompt names the video), or with --save written as NAME.frameN.jpg.
    private func show(
        _ frame: PausedFrame, session: MediaSession, _ invocation: Invocation, _ shell: any PlaybackContext
    ) throws -> CommandOutcome {
        let thumbnail = try shell.picture(of: frame, session: session)
        guard let folder = invocation.value(of: .save) else {
            return shell.pictures.showPicture(thumbnail, of: frame.file, title: frame.words, size: try Self.size(invocation), command: "thumb")
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

extension OptionName {
    static let pictureSize: OptionName = "picture-size"
    static let pictureWidth: OptionName = "picture-width"
    static let frames: OptionName = "frames"
}
