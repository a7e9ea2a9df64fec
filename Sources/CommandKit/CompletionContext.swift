import TerminalKit

/// What completion needs from the session: names it may offer. Implementations answer from caches,
/// never from the device, and keep the `NameIndex` of a folder between Tabs (it is sorted once, when built).
public protocol CompletionContext {
    /// The entries of a camera folder. `folder` is the folder part the user typed, unescaped: empty for the
    /// current folder, otherwise ending in `/` (`DCIM/100MEDIA/`, `/`, `../`).
    func remoteEntries(inFolder folder: String) -> NameIndex
    /// The entries of a local folder, `folder` given as for `remoteEntries` (`~/` is the home folder).
    func localEntries(inFolder folder: String) -> NameIndex
    /// The names `set` accepts.
    func settingNames() -> [String]
    /// The words setting `name` takes from a fixed list (`on`, `off`; `auto`, `mpv`, `none`), for `set NAME
    /// VALUE`; empty for free text (a folder, a number).
    func settingValues(for name: String) -> [String]
    /// The camera URL schemes `open` accepts, with their colon: `usb:`, `ptpip:`, `dir:`, `sim:`.
    func cameraURLSchemes() -> [String]
    /// The user's aliases, offered beside the command names.
    func aliasNames() -> [String]
    /// The text an alias stands for (`fetch -o ~/Pictures`), or nil when `name` is no alias.
    func aliasBody(_ name: String) -> String?
    /// The names of the open camera's device properties (`prop NAME`).
    func propertyNames() -> [String]
    /// The values to offer for the property `name` as typed (`prop NAME VALUE`): its allowed values, or for
    /// a wide range only its ends; empty when there is nothing to offer (free text, an unknown name).
    func propertyValues(for name: String) -> [String]
    /// The rows of the last numbered listing (`ls -n`), `#1` first, each as a word naming it from the
    /// current folder: what `#N` completes to.
    func numberedNames() -> [String]
}

extension CompletionContext {
    /// Lists the local folder relative to the process's current directory.
    public func localEntries(inFolder folder: String) -> NameIndex {
        LocalFiles.index(ofFolder: folder)
    }

    /// No aliases unless the context has some.
    public func aliasNames() -> [String] { [] }
    public func aliasBody(_ name: String) -> String? { nil }

    /// No fixed values unless the context knows its settings.
    public func settingValues(for name: String) -> [String] { [] }

    /// No numbered rows unless the context has a listing.
    public func numberedNames() -> [String] { [] }

    /// No camera properties unless the context has a camera.
    public func propertyNames() -> [String] { [] }
    public func propertyValues(for name: String) -> [String] { [] }

    /// The schemes of the product's camera URLs.
    public func cameraURLSchemes() -> [String] { ["dir:", "fuji:", "ptpip:", "sim:", "usb:"] }
}
