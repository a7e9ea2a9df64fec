import CameraFacts

extension CameraOpenError: CameraOpenFailure {
    /// The facts of the error that its words add to.
    public var problem: CameraOpenProblem {
        switch self {
        case .fujiPortNotPTPIP(_, let fujiURL), .fujifilmNotPTPIP(_, let fujiURL, _): .speaksFuji(fujiURL: fujiURL)
        case .httpServer: .httpServer
        case .fujifilmRefused: .fujifilmRefused
        case .refused(_, let reason, let guid): .refused(reason, guid: guid)
        case .notConfirmed: .notConfirmed
        case .unavailable, .usb: .other
        }
    }
}
