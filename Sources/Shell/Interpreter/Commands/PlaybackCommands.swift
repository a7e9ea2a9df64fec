import MediaManager

/// play, pause, resume, stop, seek, step, status. The seam where the Playback module's engine is wired:
/// arguments are already checked by the command table (`seek` positions parse as `SeekPosition`), and
/// `play` resolves its file here; each command then hands over to the engine. Until the engine lands,
/// every one answers that playback is not available, with a failing status.
extension Interpreter {
    func playback(_ invocation: Invocation) throws {
        if invocation.id == .play {
            let catalog = try loadedCatalog()
            let file: MediaFile
            if let word = invocation.arguments.first {
                file = try oneFile(for: word, in: catalog, command: "play")
            } else {
                file = try selectedFile(in: catalog)
            }
            guard file.kind.isVideo else {
                throw CommandError("\(SafeText.display(file.name)) is not a video")
            }
        }
        throw CommandError("playback is not available yet")
    }
}
