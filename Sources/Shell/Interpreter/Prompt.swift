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
        TokenFormat.render(state.settings.prompt) { token in
            switch token {
            case "c": return media.map { URLText.tag($0.url) } ?? "(no camera)"
            case "w": return media == nil ? "" : RemotePath.shortDisplay(state.folder)
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
}
