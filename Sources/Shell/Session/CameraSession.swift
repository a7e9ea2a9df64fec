import Connectors
import MediaManager

/// Everything of the open camera, made by one `open` and dropped as one by `close`: the media session, what
/// its open had to say, who this computer was to it on Wi-Fi, its work mode, whether a script's card was
/// listed just now, and its video being played. Nothing of a camera outlives it in the interpreter.
final class CameraSession {
    let media: MediaSession
    /// What the open has to tell besides the camera it opened: which one a `usb:` that matched several took
    /// (and how to open the others), or that a folder is not a card's. Nil when there was nothing.
    var openNote: String?
    /// Who this computer was to the camera on Wi-Fi (its GUID and name), for `summary`; nil for others.
    let wifiIdentity: WiFiIdentity?
    /// The camera's work mode as last set or read (`mode`), nil when unknown or the camera has none.
    var mode: CameraMode?
    /// In a script, true from the moment `open` listed the card until the end of the next command: that
    /// command need not list the card again to see it as it is now (`import` does otherwise).
    var listedJustNow = false
    /// The camera file the playback controller has loaded (the controller knows only its name).
    var loadedVideo: MediaFile?

    init(media: MediaSession, openNote: String? = nil, wifiIdentity: WiFiIdentity? = nil) {
        self.media = media
        self.openNote = openNote
        self.wifiIdentity = wifiIdentity
    }
}
