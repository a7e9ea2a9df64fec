import MediaManager

extension Interpreter {
    /// The prompt, showing the session state in a few words:
    /// `mediashell sim:/DCIM/100MEDIA [DJI_0003.MP4 @ 1.2 MB] (edit)> `, and while a video is loaded where it
    /// is: `[DJI_0003.MP4] ▶ 0:01.2/0:03> `. Reads only cached state.
    public var prompt: String {
        guard let media else { return "mediashell (no camera)> " }
        var text = "mediashell " + Self.cameraTag(media.url) + Self.shortFolder(state.folder)
        if let selection = state.selection {
            text += " [" + TerminalWidth.truncate(SafeText.display(selection.file.name), to: 28)
            if selection.offset > 0 { text += " @ " + HumanReadable.size(selection.offset) }
            text += "]"
        }
        if let playing = playbackPromptFragment { text += " " + playing }
        if state.isEditing { text += " (edit)" }
        return text + "> "
    }

    /// Where the camera is, briefly: `sim:`, `dir:`, `usb:`, `ptpip:192.168.1.1:`.
    static func cameraTag(_ url: CameraURL) -> String {
        switch url {
        case .simulator: "sim:"
        case .folder: "dir:"
        case .usbFirst, .usbAddress, .usbID, .usbSerial, .usbModel: "usb:"
        case .ptpip(let host, _, _): "ptpip:\(SafeText.display(host)):"
        }
    }

    /// The folder as `/DCIM/100MEDIA`, or `/…/100MEDIA/CLIPS` when it is long.
    static func shortFolder(_ path: String) -> String {
        let full = RemotePath.display(path)
        guard TerminalWidth.of(full) > 32 else { return full }
        let parts = path.split(separator: "/").suffix(2).map { SafeText.display(String($0)) }
        return TerminalWidth.truncate("/…/" + parts.joined(separator: "/"), to: 32)
    }
}
