import MediaManager

/// The file the user selected and how much of it is already downloaded, as the seed's screen keeps it.
public struct Selection: Sendable, Equatable {
    /// The file as the catalog listed it.
    public var file: MediaFile
    /// Where the next `fetch` of this file starts: bytes already downloaded into its `.part`.
    public var offset: UInt64
    /// True when the user moved the offset with `offset N`: only then does a `fetch` rewind the `.part`
    /// to it. Otherwise the offset is what the `.part` held when it was looked at, and a fetch continues
    /// whatever `.part` its destination holds.
    public var isRewind: Bool
    /// True once a fetch of it completed: it stays selected (for `info`, `play`) but the prompt no longer
    /// shows it, since nothing is left to do with it.
    public var isFinished = false

    public init(file: MediaFile, offset: UInt64 = 0, isRewind: Bool = false) {
        self.file = file
        self.offset = offset
        self.isRewind = isRewind
    }
}

/// What the shell remembers between commands, apart from the open camera itself: the camera folder,
/// the selection and its offset, edit mode and the settings. Every change goes through a method here,
/// so the rules (a new file resets the offset, closing forgets everything) live in one place.
public struct SessionState: Sendable, Equatable {
    /// The current camera folder as a catalog path: "" is the top, "DCIM/100MEDIA" a folder in it.
    public private(set) var folder = ""
    public private(set) var selection: Selection?
    public private(set) var isEditing = false
    public var settings = Settings()
    /// The URLs of the cameras the last `devices` found, which `open` completes on Tab.
    public var discoveredURLs: [String] = []
    /// True once a long listing showed what its `~` before a date means (it is said once a session).
    public var explainedPendingDates = false
    /// The catalog paths of the rows the last numbered listing showed (`ls -n`), `#1` first, which file
    /// numbers (`#3`, `#1-5`) name; nil until one.
    public private(set) var numbered: [String]?

    public init(settings: Settings = Settings()) {
        self.settings = settings
    }

    /// Goes to a camera folder (already checked to exist).
    public mutating func changeFolder(to path: String) {
        folder = path
    }

    /// Selects `file`. Selecting another file resets the offset to `downloaded` (the size of a `.part`
    /// already on disk, 0 when there is none); selecting the same file again keeps its offset.
    public mutating func select(_ file: MediaFile, downloaded: UInt64 = 0) {
        if let current = selection, current.file.path == file.path, current.file.id == file.id {
            selection?.file = file
            selection?.isFinished = false
            return
        }
        selection = Selection(file: file, offset: min(downloaded, file.size))
    }

    /// Sets the selected file's offset (`offset N`): the next fetch restarts there. The caller checked the
    /// bytes exist on disk.
    public mutating func setOffset(_ offset: UInt64) {
        selection?.offset = offset
        selection?.isRewind = true
    }

    /// A fetch of `file` stopped at `offset` (Ctrl-C, a dropped connection): that file becomes the
    /// selection, with the offset where the `.part` ends, so that the next `fetch` continues it.
    public mutating func fetchStopped(_ file: MediaFile, at offset: UInt64) {
        select(file)
        selection?.offset = min(offset, file.size)
        selection?.isRewind = false
    }

    /// Forgets the selection (`select --clear`).
    public mutating func clearSelection() {
        selection = nil
    }

    /// A fetch of `file` completed: if it is the selection, nothing is left to download.
    public mutating func fetchCompleted(_ file: MediaFile) {
        if selection?.file.path == file.path {
            selection?.offset = 0
            selection?.isRewind = false
            selection?.isFinished = true
        }
    }

    /// The camera no longer has `file` (deleted, or gone after a refresh).
    public mutating func fileRemoved(path: String) {
        if selection?.file.path == path { selection = nil }
    }

    /// The catalog was read again: the selection follows its file (new size, new id) or is dropped.
    public mutating func catalogReloaded(lookup: (String) -> MediaFile?, folderExists: (String) -> Bool) {
        if let selected = selection {
            if let fresh = lookup(selected.file.path), !fresh.isFolder {
                selection?.file = fresh
                if selected.offset > fresh.size {
                    selection?.offset = 0
                    selection?.isRewind = false
                }
            } else {
                selection = nil
            }
        }
        var path = folder
        while !path.isEmpty && !folderExists(path) {
            path = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? ""
        }
        folder = path
    }

    /// The camera was opened again (after another open failed): the folder, selection and edit mode of
    /// `earlier` come back, as far as the card still has them.
    public mutating func reopened(as earlier: SessionState, lookup: (String) -> MediaFile?, folderExists: (String) -> Bool) {
        folder = earlier.folder
        selection = earlier.selection
        isEditing = earlier.isEditing
        numbered = earlier.numbered
        catalogReloaded(lookup: lookup, folderExists: folderExists)
    }

    /// Enters edit mode; false when already in it.
    @discardableResult
    public mutating func enterEditMode() -> Bool {
        defer { isEditing = true }
        return !isEditing
    }

    /// Leaves edit mode; false when not in it.
    @discardableResult
    public mutating func leaveEditMode() -> Bool {
        defer { isEditing = false }
        return isEditing
    }

    /// A listing numbered its rows: file numbers name them from now on.
    public mutating func numberedRows(_ paths: [String]) {
        numbered = paths
    }

    /// The camera was closed or lost: folder, selection, edit mode and numbered rows go with it; settings stay.
    public mutating func cameraClosed() {
        folder = ""
        selection = nil
        isEditing = false
        numbered = nil
    }
}
