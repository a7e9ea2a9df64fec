/// What a local folder holds of one camera file, by the clash policy `fetch` follows (`ClashResolver`): a
/// copy proven to be this file, at its name or at the numbered name a fetch gave it beside a different
/// file (`NAME (2).JPG`); a different file at its name; or nothing. A file of its name is never taken for
/// it on its name alone.
public enum DownloadedCopy: Sendable, Equatable {
    /// Nothing at its name: a fetch writes it there.
    case absent
    /// A file proven to hold it: same size and a modification time within two seconds of its capture
    /// time (what `fetch` gives a download), or the checksum recorded when it was imported.
    case proven(path: String)
    /// A different file holds its name, and no numbered name holds a proven copy; a fetch writes it at
    /// `freePath`.
    case different(path: String, freePath: String)
}
