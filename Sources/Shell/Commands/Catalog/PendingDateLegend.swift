import MediaManager
import TerminalKit
import Words

extension CommandContext {
    /// Under a long listing that showed a date marked `~` (the camera's, standing in for the file's own):
    /// what the mark means, the first time in a session, on a terminal (a script's listing stays data).
    func explainPendingDates(_ listing: FileListing, _ entries: [RemoteEntry]) {
        guard output.terminalColumns != nil, !state.explainedPendingDates, listing.showsPendingDate(entries) else { return }
        state.explainedPendingDates = true
        output.note(DateText.pendingLegend)
    }
}
