import Foundation
import Import
import MediaManager
import TerminalKit
import Words

/// What the shell learns of dates when a camera opens: how far the camera's clock is from this
/// computer's (said once, with the commands that help), and the capture times the import ledger kept
/// for files imported before (so that they are not read again).
extension Interpreter {
    /// Said once when a camera opens: its clock, when far from this computer's.
    /// A USB camera held back by its port or cable: said once per open.
    func reportUSBLink(_ session: MediaSession) {
        guard let link = session.camera.usbLink,
            let warning = USBLinkWords.warning(location: session.camera.location, link)
        else { return }
        report(warning, severity: .warning)
    }

    func reportCameraClock(_ session: MediaSession) {
        guard let difference = session.camera.clockDifference() else { return }
        report(ClockWords.warning(difference: difference), severity: .warning)
    }

    /// The capture times the ledger kept for imported photos and videos, taken as this session's (no
    /// header read for them). Nothing when the ledger cannot be read (the commands that need it say why).
    func lendLedgerTimes(_ session: MediaSession) {
        guard let ledgers = try? Importer.ledgers(for: session, folder: LedgerLocation.folder(environment: environment))
        else { return }
        ledgers.lendTimes(to: session)
    }
}
