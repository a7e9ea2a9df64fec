import Connectors
import MediaManager
import POSIX
import TerminalKit

/// A Wi-Fi camera is opened as this computer (its GUID, kept in the state folder, or `set ptpip-guid`'s),
/// and a camera seen for the first time may wait for its user to confirm on its screen.
extension Interpreter {
    /// The identity Wi-Fi cameras are given: `set ptpip-guid`'s GUID, else this computer's own (made the
    /// first time). A state folder that cannot keep it gives a GUID of this run, said once.
    func wifiIdentity() -> WiFiIdentity {
        let store = WiFiState(environment: environment)
        var identity: WiFiIdentity
        do {
            guard let store else { throw WiFiStateError.unreadableGUID(path: "$XDG_STATE_HOME/mediashell/ptpip-guid") }
            identity = try store.identity()
        } catch {
            let unsaved = unsavedWiFiIdentity ?? WiFiIdentity.unsaved()
            if unsavedWiFiIdentity == nil {
                report(
                    "cannot keep this computer's Wi-Fi identity (\(error)): this run gives cameras a GUID of its own, "
                        + "so a camera paired now asks again next time", severity: .warning)
                unsavedWiFiIdentity = unsaved
            }
            identity = unsaved
        }
        if let guid = state.settings.ptpipGUID { identity.guid = guid }
        return identity
    }

    /// Options for opening a Wi-Fi camera: this computer's identity, the cameras it knows, and the sentence
    /// to say (left in `waitingNote`) while a camera seen for the first time waits for its user.
    func prepareWiFi(_ options: inout CameraConnector.Options, waitingNote: ChoiceNote) {
        options.identity = wifiIdentity()
        options.wifiState = WiFiState(environment: environment)
        options.onFirstContactWait = { seconds in
            waitingNote.text.withLock { $0 = "confirm the connection on the camera's screen (waiting up to \(Int(seconds)) s)" }
        }
    }
}

extension CameraURL {
    /// A camera reached over the network, which pairs with this computer's GUID.
    var isWiFi: Bool {
        switch self {
        case .ptpip, .fuji: true
        default: false
        }
    }
}
