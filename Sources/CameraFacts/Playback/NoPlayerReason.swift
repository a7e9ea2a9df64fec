/// Why no player window is shown with the setting as it is.
public enum NoPlayerReason: Sendable, Equatable {
    /// The setting is `none`.
    case setToNone
    case mpvNotInstalled
    /// `auto` in a script or a pipe.
    case notInteractive
    /// `auto` with neither `DISPLAY` nor `WAYLAND_DISPLAY`.
    case noDisplay
}
