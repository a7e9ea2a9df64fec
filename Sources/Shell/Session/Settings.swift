import Connectors
import Import
import Playback
import MediaManager
import TerminalGraphics
import TerminalKit

/// The shell's settings, changed with `set NAME VALUE` and listed with `set`.
public struct Settings: Sendable, Equatable {

    /// Which external player `play` shows the video in (see `PlayerChoice`).
    public typealias Player = PlayerSetting

    /// Stop a script at the first failing command (a leading `-` excuses one command).
    public var errexit = true
    /// Draw a progress line during transfers (only ever on a terminal).
    public var progress = true
    /// Seconds to wait for a camera's answer; used when a camera is opened, and for `capture`.
    public var timeout: Double = 10
    /// How thumbnails are drawn: detected from the terminal (`auto`), a forced protocol (`kitty`, `iterm`,
    /// `blocks`), or not at all (`off`: names and text only).
    public var images = ImageMode.auto
    /// Where downloads go, relative to the local folder (`lcd`) unless absolute.
    public var downloadFolder = "."
    /// The most bytes per second a download may take; nil for no limit.
    public var rateLimit: UInt64?
    public var player = Player.auto
    /// Where `import` puts files when no `--to` is given: a destination pattern (`help import` lists the
    /// tokens), `~` expanded.
    public var importPattern = "~/Pictures/%Y/%Y-%m-%d/%f"
    /// The folders `import` also writes a copy of every file under when no `--backup` is given (`~`
    /// expanded then); empty for none.
    public var importBackups: [String] = []
    /// The prompt, with `PromptFormat`'s tokens.
    public var prompt = PromptFormat.standard
    /// The camera opened when `--camera` names none (set in the config file); empty: the first USB camera.
    public var camera = ""
    /// What `quit` (and the end of a script) does with jobs still running (`set jobs-on-exit`).
    public var jobsOnExit = JobsOnExit.ask
    /// The GUID given to Wi-Fi cameras instead of this computer's own (a GUID registered with a Sony); nil:
    /// this computer's own, kept in the state folder.
    public var ptpipGUID: [UInt8]?
    /// Whether a `sim:PATH` opened from now on may change the files in PATH (`--writable`), as `serve
    /// --writable`; off serves it read-only, as `serve` does.
    public var writable = false
    /// Number the rows of every `ls`, as `ls -n` does, for file arguments such as `#3`.
    public var numbers = false
    /// What every import writes into an XMP sidecar beside each file (`creator`, `copyright`, `keywords`,
    /// `rating`; `import --meta FILE` adds to it); empty: no sidecar unless `--meta` asks.
    public var sidecar = SidecarMetadata()
    /// How the sidecars are named: `DJI_0001.JPG.xmp` (darktable, digiKam) or `DJI_0001.xmp` (Lightroom).
    public var sidecarNaming = XMPSidecar.Naming.afterExtension
    /// Every import writes an ASC MHL generation into each destination's root, as `import --mhl` does.
    public var mhl = false

    public init() {}

    /// Every setting's name, in the order `set` lists them.
    public static let names = [
        "errexit", "progress", "timeout", "images", "download-dir", "limit-rate", "player", "import-to", "import-backup",
        "prompt", "camera", "jobs-on-exit", "ptpip-guid", "writable", "numbers", "creator", "copyright", "keywords",
        "rating", "sidecar-name", "mhl",
    ]

    /// Each setting's values and meaning, for `help set` and the man page (one line each).
    public static let help: [(name: String, values: String, meaning: String)] = [
        ("errexit", "on|off", "stop a script at the first failure (on)"),
        ("progress", "on|off", "progress lines on a terminal (on)"),
        ("timeout", "SECONDS", "how long to wait for the camera, used by open and capture (10)"),
        ("images", "auto|kitty|iterm|blocks|off",
            "how thumbnails are drawn: auto is the terminal's image protocol when it has one, else colour "
                + "half blocks; off is text only (auto)"),
        ("download-dir", "DIR", "where fetch writes (.)"),
        ("limit-rate", "BYTES|off", "the most bytes per second a download takes, such as 500k or 20M (off)"),
        ("player", "auto|mpv|none",
            "where play shows the video: auto is mpv at a prompt with a display and none in scripts; mpv "
                + "whenever installed; none never (auto)"),
        ("import-to", "PATTERN", "where import puts files ('help import' lists the tokens)"),
        ("import-backup", "DIR[:DIR...]|none",
            "folders import also writes a copy of every file under, as --backup does, when none is given (none)"),
        ("prompt", "FORMAT", "the prompt, with the tokens listed in 'help set' (\(PromptFormat.standard))"),
        ("camera", "URL|none", "the camera opened when --camera names none, best set in the config file (none: "
            + "the USB camera attached)"),
        ("jobs-on-exit", "ask|wait|kill",
            "quit with jobs running: ask warns once at a prompt (quit again kills them) and waits in a script; "
                + "wait waits for them; kill stops them, keeping each .part (ask)"),
        ("ptpip-guid", "HEX|auto",
            "the GUID this computer gives Wi-Fi cameras, 32 hex digits (a GUID registered with a Sony); auto is "
                + "this computer's own, made once and kept in $XDG_STATE_HOME/mediashell/ptpip-guid (auto)"),
        ("writable", "on|off",
            "whether a sim:PATH opened after this may change the files in PATH (delete, put, mkdir, capture), as "
                + "serve --writable; --writable sets it on. dir: always deletes; sim: changes only its copy in memory (off)"),
        ("numbers", "on|off", "number the rows of every ls, as ls -n does, for file arguments such as #3 or #1-5 (off)"),
        ("creator", "NAME[,NAME...]|none",
            "who made the pictures: import writes it into an XMP sidecar beside each file (dc:creator); {camera}, "
                + "{lens}, {date}, {year} and {name} are the file's (none)"),
        ("copyright", "TEXT|none", "the rights notice import writes into each sidecar (dc:rights), such as '© {year} Ann Lee' (none)"),
        ("keywords", "WORD[,WORD...]|none", "keywords import writes into each sidecar (dc:subject) (none)"),
        ("rating", "0-5|none", "the rating import writes into each sidecar (xmp:Rating) (none)"),
        ("sidecar-name", "ext|base",
            "how sidecars are named: ext is DJI_0001.JPG.xmp (darktable, digiKam), base is DJI_0001.xmp "
                + "(Lightroom, Capture One) (ext)"),
        ("mhl", "on|off", "every import records its copies in an ASC MHL history at each destination's root, as --mhl does (off)"),
    ]

    /// The words among setting `name`'s values in `help` (`on|off`, `BYTES|off`): its fixed values, which Tab
    /// offers after `set NAME`; a placeholder in capitals (`BYTES`, `DIR`) is free text and left out.
    public static func fixedValues(of name: String) -> [String] {
        guard let values = help.first(where: { $0.name == name })?.values else { return [] }
        return values.split(separator: "|").map(String.init).filter { word in
            word.allSatisfy { $0.isLowercase || $0 == "-" }
        }
    }

    /// The value of setting `name` as `set` shows it.
    public func value(of name: String) throws(SettingError) -> String {
        switch name {
        case "errexit": return errexit ? "on" : "off"
        case "progress": return progress ? "on" : "off"
        case "timeout": return Self.format(seconds: timeout)
        case "images": return images.rawValue
        case "download-dir": return downloadFolder
        case "limit-rate": return rateLimit.map { HumanReadable.size($0) + "/s" } ?? "off"
        case "player": return player.rawValue
        case "import-to": return importPattern
        case "import-backup": return importBackups.isEmpty ? "none" : importBackups.joined(separator: ":")
        case "prompt": return prompt
        case "camera": return camera.isEmpty ? "none" : camera
        case "jobs-on-exit": return jobsOnExit.rawValue
        case "ptpip-guid": return ptpipGUID.map(WiFiIdentity.text) ?? "auto"
        case "writable": return writable ? "on" : "off"
        case "numbers": return numbers ? "on" : "off"
        case "creator": return sidecar.creators.isEmpty ? "none" : sidecar.creators.joined(separator: ", ")
        case "copyright": return sidecar.copyright ?? "none"
        case "keywords": return sidecar.keywords.isEmpty ? "none" : sidecar.keywords.joined(separator: ", ")
        case "rating": return sidecar.rating.map(String.init) ?? "none"
        case "sidecar-name": return sidecarNaming.rawValue
        case "mhl": return mhl ? "on" : "off"
        default: throw SettingError.unknown(name)
        }
    }

    /// Changes setting `name` from its text; the setting is unchanged when the text is not valid.
    public mutating func set(_ name: String, to text: String) throws(SettingError) {
        switch name {
        case "errexit": errexit = try Self.switchValue(text, for: name)
        case "progress": progress = try Self.switchValue(text, for: name)
        case "writable": writable = try Self.switchValue(text, for: name)
        case "numbers": numbers = try Self.switchValue(text, for: name)
        case "mhl": mhl = try Self.switchValue(text, for: name)
        case "creator", "copyright", "keywords", "rating":
            let value = ["none", "off"].contains(text.lowercased()) ? "" : text
            do { try sidecar.set(name, to: value) } catch { throw SettingError.invalid(name, error.description) }
        case "sidecar-name":
            guard let naming = XMPSidecar.Naming(rawValue: text.lowercased()) else {
                throw SettingError.invalid(name, "ext (DJI_0001.JPG.xmp) or base (DJI_0001.xmp)")
            }
            sidecarNaming = naming
        case "timeout":
            guard let seconds = Double(text), seconds.isFinite, seconds > 0, seconds <= 3600 else {
                throw SettingError.invalid(name, "a number of seconds between 0 and 3600, such as 10 or 2.5")
            }
            timeout = seconds
        case "images":
            guard let value = ImageMode(setting: text) else {
                throw SettingError.invalid(name, "auto, kitty, iterm, blocks or off")
            }
            images = value
        case "download-dir":
            guard !text.isEmpty else { throw SettingError.invalid(name, "a folder") }
            downloadFolder = text
        case "limit-rate":
            if ["off", "0", "none", "no"].contains(text.lowercased()) {
                rateLimit = nil
            } else if let bytes = ByteCountText.parse(text), bytes > 0 {
                rateLimit = max(bytes, 1024)
            } else {
                throw SettingError.invalid(name, "bytes per second such as 500k, 20M or 1G, or off")
            }
        case "player":
            let word = text.lowercased()
            guard let value = Player(rawValue: word == "off" ? "none" : word) else {
                throw SettingError.invalid(name, "auto, mpv or none")
            }
            player = value
        case "import-to":
            do {
                _ = try DestinationPattern(text)
            } catch {
                throw SettingError.invalid(name, "a destination pattern such as ~/Pictures/%Y/%Y-%m-%d/%f (\(error))")
            }
            importPattern = text
        case "import-backup":
            if ["none", "off", ""].contains(text.lowercased()) {
                importBackups = []
            } else {
                let folders = text.split(separator: ":").map(String.init).filter { !$0.isEmpty }
                guard !folders.isEmpty else { throw SettingError.invalid(name, "folders separated by ':', or none") }
                importBackups = folders
            }
        case "prompt":
            guard !text.isEmpty else { throw SettingError.invalid(name, "a format such as '\(PromptFormat.standard)'") }
            prompt = text
        case "jobs-on-exit":
            guard let value = JobsOnExit(rawValue: text.lowercased()) else {
                throw SettingError.invalid(name, "ask, wait or kill")
            }
            jobsOnExit = value
        case "ptpip-guid":
            if ["auto", "none", "off", ""].contains(text.lowercased()) {
                ptpipGUID = nil
            } else if let guid = WiFiIdentity.parseGUID(text) {
                ptpipGUID = guid
            } else {
                throw SettingError.invalid(name, "32 hexadecimal digits (dashes allowed), or auto")
            }
        case "camera":
            if ["none", "off", ""].contains(text.lowercased()) {
                camera = ""
            } else {
                do {
                    _ = try CameraURL(parsing: text)
                } catch {
                    throw SettingError.invalid(name, "a camera URL such as usb:, ptpip:192.168.1.1 or dir:/media/card, or none")
                }
                camera = text
            }
        default: throw SettingError.unknown(name)
        }
    }

    static func switchValue(_ text: String, for name: String) throws(SettingError) -> Bool {
        switch text.lowercased() {
        case "on", "true", "yes", "1": return true
        case "off", "false", "no", "0": return false
        default: throw SettingError.invalid(name, "on or off")
        }
    }

    static func format(seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}

/// A `set` that names no setting or gives a value the setting does not take.
public enum SettingError: Error, Sendable, Equatable, CustomStringConvertible {
    case unknown(String)
    case invalid(String, String)

    public var description: String {
        switch self {
        case .unknown(let name):
            "unknown setting '\(SafeText.display(name))' (settings: \(Settings.names.joined(separator: ", ")))"
        case .invalid(let name, let expected): "\(name) takes \(expected)"
        }
    }
}

/// What leaving the shell does with jobs still running.
public enum JobsOnExit: String, Sendable {
    /// At a prompt: say so and stay; a second `quit` kills them. In a script: wait.
    case ask
    case wait
    /// Stop them; each file in progress keeps its `.part`.
    case kill
}
