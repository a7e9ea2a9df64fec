/// Why a download did not continue the `.part` an earlier run kept, and started again from byte 0.
public enum PartRestart: Equatable, Sendable {
    /// Nothing says what it is a part of (left by an older mediashell, another program, or a crash before
    /// its first record).
    case noRecord
    /// Its record names another object: what differs ("camera", "size", "capture date"...).
    case otherObject(differences: [String])
    /// Its bytes on disk are no longer those its record proves (changed or cut since).
    case changedOnDisk
    /// The camera's bytes where the kept ones end differ from them: the file on the camera is not the one
    /// the `.part` was a part of (replaced with one of the same name, size and date).
    case cameraDiffers
    /// This camera cannot read part of a file: the whole file comes again from byte 0.
    case cannotReadRanges
}
