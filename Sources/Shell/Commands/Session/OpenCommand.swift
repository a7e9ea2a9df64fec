import MediaManager

/// open URL: closes the camera that is open, opens the one at URL and reads its file list.
struct OpenCommand: ShellCommand {
    let spec = CommandSpec(
        "open", area: .session, arguments: [ArgumentSpec("URL", .cameraURL)],
        summary: "open a camera",
        details: """
            Opens the camera at URL, closing the current one. URLs: usb:, usb:BUS,ADDR, usb:VVVV:PPPP, \
            ptpip:HOST[:PORT[:EVENTPORT]], dir:PATH, sim: and sim:PATH.
            """)

    func run(_ invocation: Invocation, in shell: Interpreter) throws -> CommandOutcome {
        guard let text = invocation.arguments.first?.text else { return .success }
        let url = try CameraURL(parsing: text)
        do {
            try shell.open(url)
        } catch let interrupted as Interrupted {
            throw interrupted
        } catch {
            throw CommandError("cannot open \(SafeText.display(url.description)): \(Interpreter.message(for: error))")
        }
        if let media = shell.media { shell.output.line(Self.openedLine(media)) }
        return .success
    }

    /// `opened sim: (Virtual Camera, 10 files)`.
    static func openedLine(_ media: MediaSession) -> String {
        let summary = media.camera.summary
        let count = media.catalog.allFiles().count
        let model = [summary.manufacturer, summary.model].filter { !$0.isEmpty }.joined(separator: " ")
        return "opened \(SafeText.display(media.url.description)) (\(SafeText.display(model)), "
            + "\(count) file\(count == 1 ? "" : "s"))"
    }
}
