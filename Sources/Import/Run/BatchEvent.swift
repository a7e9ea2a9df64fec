import MediaManager

/// What the run tells its caller about each file, in order, once its outcome is final (a fetched file
/// once it is on disk under its name and recorded).
public enum BatchEvent: Sendable {
    /// On disk under its name and recorded; `restarted` says why a `.part` an earlier run kept was not
    /// continued (and how many bytes it held).
    case fetched(ImportItem, bytes: UInt64, resumedFrom: UInt64, restarted: (why: PartRestart, kept: UInt64)?)
    case skipped(ImportItem)
    case failed(ImportItem, Error)
    /// The file arrived but deleting it from the camera failed.
    case notDeleted(ImportItem, Error)
    case deleted(ImportItem)
    /// Ctrl-C stopped this file; its `.part` holds `at` bytes.
    case stopped(ImportItem, at: UInt64)
    /// Its copy in the backup destination `destination` failed (written, renamed or read back wrong);
    /// the other copies stand.
    case copyFailed(ImportItem, destination: String, Error)
    /// Imported before but missing in `destination`: copied there now from a proven copy (`path`), not
    /// from the camera.
    case completed(ImportItem, destination: String, path: String)
    /// Its XMP sidecar could not be written (the file itself is home).
    case noSidecar(ImportItem, Error)
}
