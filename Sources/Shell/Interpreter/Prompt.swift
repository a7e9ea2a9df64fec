import CommandKit
import MediaManager
import TerminalKit
import Transfers
import Words

/// The prompt's format: text with tokens that the session state fills in (`set prompt`).
public enum PromptFormat {
    /// The default: `dir:/DCIM/100MEDIA> `; `sim:…/100MEDIA/CLIPS [DJI_0003.MP4 @ 1.2 MB] (edit)> `.
    public static let standard = "%c%w%s%p%m%e%j> "

    /// Each token and what it shows, for `help prompt`, `help set` and the man page.
    public static let tokens: [HelpEntry] = [
        HelpEntry("%c", "the camera: sim:, dir:, usb:, ptpip:HOST: (with :PORT when it is not 15740)"),
        HelpEntry("%w", "the camera folder's last two parts: /DCIM/100MEDIA, …/100MEDIA/CLIPS"),
        HelpEntry("%W", "the camera folder in full"),
        HelpEntry("%s", "the selected file while it is worked on (selected, or partly downloaded): [NAME @ 1.2 MB]"),
        HelpEntry("%p", "the video being played and where: ▶ 0:01.2/0:03"),
        HelpEntry("%m", "(shoot) while the camera is in shoot mode and gives no files ('mode')"),
        HelpEntry("%e", "(edit) in edit mode"),
        HelpEntry("%j", "the jobs running, while there are any: [1 job]"),
        HelpEntry("%n", "mediashell"),
        HelpEntry("%%", "a %"),
    ]
}

extension Interpreter {
    /// The prompt, the `prompt` setting's tokens filled from cached state: by default
    /// `dir:/DCIM/100MEDIA [DJI_0003.MP4 @ 1.2 MB] (edit)> `, and while a video is loaded where it is:
    /// `[DJI_0003.MP4] ▶ 0:01.2/0:03> `. The selection shows only while it is worked on: a file whose
    /// fetch completed leaves the prompt (it stays selected for `info` and `play`).
    public var prompt: String {
        Self.render(state.settings.prompt) { token in
            switch token {
            case "c": return media.map { Self.cameraTag($0.url) } ?? "(no camera)"
            case "w": return media == nil ? "" : Self.shortFolder(state.folder)
            case "W": return media == nil ? "" : RemotePath.display(state.folder)
            case "s": return promptSelection.map { " " + $0 } ?? ""
            case "p": return playbackPromptFragment.map { " " + $0 } ?? ""
            case "m": return cameraMode == .shoot ? " (shoot)" : ""
            case "e": return state.isEditing ? " (edit)" : ""
            case "j":
                let running = jobs.running.count
                return running == 0 ? "" : " [\(running) job\(running == 1 ? "" : "s")]"
            case "n": return "mediashell"
            case "%": return "%"
            default: return nil
            }
        }
    }

    /// `[DJI_0003.MP4 @ 1.2 MB]` while the selection is worked on, else nil.
    var promptSelection: String? {
        guard let selection = state.selection, !selection.isFinished else { return nil }
        var text = "[" + TerminalWidth.truncate(SafeText.display(selection.file.name), to: 28)
        if selection.offset > 0 { text += " @ " + HumanReadable.size(selection.offset) }
        return text + "]"
    }

    /// `format` with each `%X` replaced by `value(X)`; an unknown token stays as typed.
    static func render(_ format: String, _ value: (Character) -> String?) -> String {
        var result = ""
        var iterator = format.makeIterator()
        while let character = iterator.next() {
            guard character == "%" else {
                result.append(character)
                continue
            }
            guard let token = iterator.next() else {
                result.append("%")
                break
            }
            result += value(token) ?? "%" + String(token)
        }
        return SafeText.display(result)
    }

    /// Where the camera is, briefly: `sim:`, `dir:`, `usb:`, `ptpip:192.168.1.1:`, `ptpip:127.0.0.1:5555:`, `fuji:192.168.0.1:`.
    static func cameraTag(_ url: CameraURL) -> String {
        switch url {
        case .simulator: "sim:"
        case .folder: "dir:"
        case .usbFirst, .usbAddress, .usbID, .usbSerial, .usbModel: "usb:"
        case .ptpip(let host, let port, _):
            "ptpip:\(SafeText.display(host)):" + (port == CameraURL.defaultPTPIPPort ? "" : "\(port):")
        case .fuji(let host, let port, _):
            "fuji:\(SafeText.display(host)):" + (port == CameraURL.defaultFujiPort ? "" : "\(port):")
        }
    }

    /// The folder as `/DCIM/100MEDIA`, or `…/100MEDIA/CLIPS` when it has more than two parts; at most 32 cells.
    static func shortFolder(_ path: String) -> String {
        let parts = path.split(separator: "/").map { SafeText.display(String($0)) }
        let shown = parts.count > 2 ? "…/" + parts.suffix(2).joined(separator: "/") : RemotePath.display(path)
        return TerminalWidth.truncate(shown, to: 32)
    }
}
