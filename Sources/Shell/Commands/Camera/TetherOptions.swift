import CommandKit
import Import
import MediaManager
import TerminalKit
import Transfers

extension OptionName {
    static let fetch: OptionName = "fetch"
}

extension CommandContext {
    /// `capture --fetch` and `watch --fetch`: the files a shot produced brought home as `import` does, to
    /// `--to` or else the download folder, remembered in the camera's import ledger.
    func tetherDownload(_ invocation: Invocation, session: MediaSession, command: String) throws -> TetherDownload {
        try TetherDownload(
            to: invocation.value(of: .to)?.text, downloadFolder: downloadFolder(nil),
            ledgerFolder: LedgerLocation.folder(environment: environment), host: batchHost, session: session, command: command)
    }
}
