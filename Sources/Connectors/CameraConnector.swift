import Failures
import Foundation
import MediaFormats
import MediaManager
import POSIX
import PTP
import PTPIP
import PTPUSB
import VirtualCamera

/// Opens a camera from its URL: the in-process virtual camera for `sim:` and `dir:`, a PTP/IP
/// connection for `ptpip:`, Fujifilm's Wi-Fi protocol for `fuji:`, USB for `usb:`. The only module that knows every transport: MediaManager
/// works over the transport protocols of PTP, and the shell asks here for a camera.
public enum CameraConnector {
    public struct Options: Sendable {
        /// Seconds to wait for a device's answer before giving up.
        public var timeout: TimeInterval = 10
        /// Who this computer is to a Wi-Fi camera (the GUID and name of the PTP/IP and Fujifilm handshakes): a
        /// GUID of this run unless the caller gives the computer's own (`WiFiState.identity`).
        public var identity = WiFiIdentity.unsaved()
        /// Where the Wi-Fi cameras this computer connected to are remembered, so that only a camera's first
        /// contact waits for a confirmation on its screen; nil: none is, every camera waits `timeout`.
        public var wifiState: WiFiState?
        /// How long a camera seen for the first time may take to let this computer in (its user confirms on
        /// the camera's screen).
        public var firstContactSeconds: Double = 60
        /// Told, with `firstContactSeconds`, when a camera seen for the first time has not answered within a
        /// second: it is asking its user.
        public var onFirstContactWait: (@Sendable (Double) -> Void)?
        /// Where a `ptpip:` open that failed looks for a Fujifilm body (Fuji's command port; tests give another).
        public var fujiPort = CameraURL.defaultFujiPort
        /// Whether `sim:PATH` may change the files in PATH (deletes, captures, uploads), as `serve --writable`
        /// lets clients; false, the default, serves the folder read-only, as `serve` does. `dir:` (the user's
        /// own card) deletes either way, and the demo card `sim:` changes only its copy in memory.
        public var writableFolder = false
        /// Given to the in-process virtual camera (`sim:`, `dir:`) for its videos' thumbnails.
        public var videoFrames: VideoFrameDecoder?
        /// Records every container of the session (`--debug-ptp`); nil: none.
        public var trace: PTPTrace?
        /// Where `usb:` URLs look for cameras: the machine's USB bus, unless demo ones are presented
        /// (see `VirtualUSBBus`).
        public var usbBus: USBCameraBus = CameraConnector.standardUSBBus
        /// What a `usb:` URL that matches more than one camera does: open the first and tell `onUSBChoice`
        /// (at a prompt), or fail with the list (false: a script must name the camera it means).
        public var opensFirstOfSeveral = true
        /// Told which camera was opened when a `usb:` URL matched several, and which were not.
        public var onUSBChoice: (@Sendable (USBCameraChoice) -> Void)?
        public init() {}
    }

    public static func open(_ url: CameraURL, options: Options = Options()) throws -> Camera {
        switch url {
        case .simulator(nil):
            return try inProcess(card: try DemoCard.make(), location: url.description, options: options)
        case .simulator(let path?):
            let folder = try existingFolder(path)
            let writable = options.writableFolder
            let card = try Card(folder: folder, readOnly: !writable, uploads: writable ? UploadPolicy() : nil)
            try DemoCard.enableCapture(on: card)
            return try inProcess(card: card, identity: .servingFolder(folder), location: url.description, options: options)
        case .folder(let path):
            // A card folder says what it is: no camera model, no settings, no capture; a folder, not an SD card,
            // as its store; the card's identity as its serial.
            let folder = try existingFolder(path)
            let card = try Card(folder: folder, description: "folder")
            let identity = VirtualCamera.Identity.cardFolder(folder)
            return try inProcess(card: card, identity: identity, location: url.description, options: options)
        case .ptpip(let host, let port, let eventPort):
            return try openPTPIP(host: host, port: port, eventPort: eventPort, url: url, options: options)
        case .fuji(let host, let port, let eventPort, let liveViewPort):
            return try openFuji(host: host, port: port, eventPort: eventPort, liveViewPort: liveViewPort, url: url, options: options)
        case .usbFirst, .usbAddress, .usbID, .usbSerial, .usbModel:
            guard let selector = usbSelector(url) else { preconditionFailure("every usb: URL has a selector") }
            return try openUSB(selector, options: options)
        }
    }

    static func existingFolder(_ path: String) throws -> String {
        let expanded = NSString(string: path).expandingTildeInPath
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: expanded, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CameraOpenError.unavailable("\(path): no such folder")
        }
        return expanded
    }

    /// Runs a virtual camera on `card` in this process, connected through the in-memory transport.
    static func inProcess(
        card: Card, identity: VirtualCamera.Identity = .init(), location: String, options: Options, usbLink: USBLink? = nil
    ) throws -> Camera {
        let camera = VirtualCamera(card: card, identity: identity, videoFrames: options.videoFrames)
        let (initiator, responder) = InMemoryTransport.makePair(chunkSize: 1 << 20, timeout: options.timeout)
        let finished = LockedCondition(false)
        let thread = Thread {
            camera.serve(responder, peer: "in-process")
            finished.change { $0 = true }
        }
        thread.name = "virtual-camera"
        thread.start()
        let close: @Sendable () -> Void = {
            responder.close()
            _ = finished.wait(until: .after(5)) { $0 }
        }
        // A card folder announces files dropped into it once its watcher runs (`watch`, `events`).
        var watch: (@Sendable () -> Void)?
        if card.folder != nil { watch = { [weak card] in card?.startWatching() } }
        return try Camera(transport: options.traced(initiator), location: location, onClose: close, onWatch: watch, usbLink: usbLink)
    }
}

extension CameraConnector.Options {
    /// `transport`, wrapped so that it records into `trace` when there is one.
    func traced(_ transport: InitiatorTransport) -> InitiatorTransport {
        trace.map { TracingTransport(transport, trace: $0) } ?? transport
    }
}

/// Why a camera address could not be opened, as data (the shell words it).
public enum CameraOpenError: Error, Equatable, CustomStringConvertible, CategorizedError {
    /// Nothing at that address can be opened (the text says why).
    case unavailable(String)
    /// The USB camera could not be found, opened or claimed.
    case usb(USBCameraError)
    /// `ptpip:HOST:55740`: the port of Fujifilm's Wi-Fi protocol, not of PTP/IP; nothing was sent there.
    /// `fuji:HOST` opens it.
    case fujiPortNotPTPIP(host: String, fujiURL: CameraURL)
    /// PTP/IP failed (`cause`) and the host answered Fuji's init request on `fujiURL`'s port as a Fujifilm
    /// body does (its acknowledgement, or Init_Fail to that request): `fujiURL` opens it.
    case fujifilmNotPTPIP(host: String, fujiURL: CameraURL, cause: String)
    /// An HTTP server answered PTP/IP's opening request at `address` (its status line): no PTP/IP camera there.
    case httpServer(address: String, statusLine: String)
    /// A Fujifilm camera answered our init request with Init_Fail: it does not let this computer in (its
    /// Wi-Fi mode is not one that serves a computer, or another device is paired).
    case fujifilmRefused(host: String, reason: UInt32)
    /// A PTP/IP camera answered with Init_Fail: `reason`, to this computer's `guid` (32 hex digits).
    case refused(host: String, reason: WiFiRefusal, guid: String)
    /// A camera seen for the first time took the connection but did not let this computer in within
    /// `seconds` (nobody confirmed on its screen).
    case notConfirmed(host: String, seconds: Double)

    public var description: String {
        switch self {
        case .unavailable(let why): why
        case .usb(let error): error.description
        case .fujiPortNotPTPIP(_, let fujiURL):
            "port \(Self.port(of: fujiURL)) is the port of Fujifilm's Wi-Fi protocol, not of PTP/IP"
        case .fujifilmNotPTPIP(let host, let fujiURL, let cause):
            "\(host) answered Fuji's init request on port \(Self.port(of: fujiURL)): it speaks "
                + "Fujifilm's Wi-Fi protocol, not PTP/IP (PTP/IP: \(cause))"
        case .httpServer(let address, let statusLine):
            "\(address): an HTTP server answered (\(statusLine)), not a PTP/IP camera"
        case .fujifilmRefused(let host, let reason):
            "\(host) refused this computer (Init_Fail, reason 0x\(String(reason, radix: 16, uppercase: true)))"
        case .refused(let host, let reason, _):
            "\(host) refused this computer (Init_Fail: \(reason))"
        case .notConfirmed(let host, let seconds):
            "\(host) did not let this computer in within \(Int(seconds)) s"
        }
    }

    private static func port(of url: CameraURL) -> UInt16 {
        if case .fuji(_, let port, _, _) = url { return port }
        return CameraURL.defaultFujiPort
    }

    public var category: FailureCategory {
        switch self {
        case .unavailable: .notFound
        case .usb(let error): error.category
        case .fujiPortNotPTPIP, .fujifilmNotPTPIP: .invalidRequest
        case .httpServer: .notFound
        case .fujifilmRefused: .deviceFault
        case .refused(_, let reason, _): reason == .busy ? .busy : .deviceFault
        case .notConfirmed: .timedOut
        }
    }
}

extension CameraConnector {
    /// PTP/IP. Fujifilm bodies do not speak it on Wi-Fi: `ptpip:HOST:55740` is refused before anything is
    /// sent (a PTP/IP request is not a Fuji init, and a Fuji body gives no answer a PTP/IP client could
    /// read). A PTP/IP open that fails says what was seen: nothing (refused, no answer in time), an HTTP
    /// server, a refusal (Init_Fail), or a Fujifilm body, only when one answers Fuji's own init request (see
    /// `fujiCandidatePorts`).
    static func openPTPIP(host: String, port: UInt16, eventPort: UInt16, url: CameraURL, options: Options) throws -> Camera {
        if port == CameraURL.defaultFujiPort {
            throw CameraOpenError.fujiPortNotPTPIP(host: host, fujiURL: fujiURL(host, port: port))
        }
        let timeouts = PTPIPTimeouts(connect: options.timeout, read: options.timeout, handshake: options.timeout)
        let firstContact = options.wifiState.map { !$0.knows(host: host) } ?? false
        let notify = options.onFirstContactWait
        let wait = firstContact ? FirstContactWait(seconds: options.firstContactSeconds) { notify?($0) } : nil
        let transport: PTPIPInitiator
        do {
            transport = try PTPIPInitiator.connect(
                host: host, port: port, eventPort: eventPort, name: options.identity.name, guid: options.identity.guid,
                timeouts: timeouts, trace: options.trace, firstContact: wait)
        } catch let refusal as PTPIPRefusal {
            // A PTP/IP responder answered: it is not asked again, in Fuji's words or any other.
            throw CameraOpenError.refused(
                host: url.description, reason: WiFiRefusal(refusal.reason), guid: options.identity.guidText)
        } catch let http as HTTPServerAnswer {
            throw CameraOpenError.httpServer(address: url.description, statusLine: http.statusLine)
        } catch let error as PTPError {
            for candidate in fujiCandidatePorts(after: error, port: port, options: options)
            where answersFujiHandshake(host, port: candidate, options: options) {
                throw CameraOpenError.fujifilmNotPTPIP(host: host, fujiURL: fujiURL(host, port: candidate), cause: error.description)
            }
            if let wait, case .unanswered(let step) = error, step.awaited == "\(PTPIPPacketType.initCommandAck)" {
                throw CameraOpenError.notConfirmed(host: url.description, seconds: wait.seconds)
            }
            throw error
        }
        let camera = try Camera(transport: options.traced(transport), location: url.description)
        // Known from now on: the next connection is not a first contact.
        try? options.wifiState?.remember(host: host, cameraGUID: transport.deviceGUID, name: transport.deviceName)
        return camera
    }
}
