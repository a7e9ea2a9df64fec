import POSIX

/// Where the command history is kept between runs.
public enum HistoryLocation {
    /// `$XDG_STATE_HOME/mediashell/history`, or `~/.local/state/mediashell/history` when `XDG_STATE_HOME` is
    /// unset or not absolute (as the XDG spec asks); nil without a usable home.
    public static func path(environment: [String: String]) -> String? {
        StateLocation.folder(environment: environment).map { $0 + "/history" }
    }
}
