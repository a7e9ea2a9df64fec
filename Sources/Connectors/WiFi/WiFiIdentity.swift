import POSIX
import PTPIP

/// Who this computer is to a Wi-Fi camera: the 16-byte GUID of the PTP/IP (and Fujifilm) handshake and the
/// name the camera shows. Cameras pair with the GUID (Nikon keeps a record per GUID, Sony lets in only a
/// GUID registered through its app, Canon and Fujifilm ask on their screen the first time they see one),
/// so it is made once per computer, at random, and kept in the user's state folder.
public struct WiFiIdentity: Sendable, Equatable {
    public var guid: [UInt8]
    public var name: String

    public init(guid: [UInt8], name: String) {
        self.guid = guid
        self.name = name
    }

    /// A GUID of this run only, for callers that keep no state (tests, tools): never a shared constant.
    public static func unsaved(name: String? = nil) -> WiFiIdentity {
        WiFiIdentity(guid: randomGUID(), name: name ?? hostName)
    }

    /// This computer's name as the camera shows it: the host name, else "mediashell".
    public static var hostName: String { localHostName() ?? "mediashell" }

    /// The GUID as 32 hexadecimal digits, as `set ptpip-guid` takes it and `summary` shows it.
    public var guidText: String { Self.text(guid) }

    public static func text(_ guid: [UInt8]) -> String { GUIDText.format(guid) }

    /// 32 hexadecimal digits (dashes, colons and spaces between them ignored), nil for anything else.
    public static func parseGUID(_ text: String) -> [UInt8]? { GUIDText.parse(text) }

    static func randomGUID() -> [UInt8] { GUIDText.random() }
}

/// Where this computer's Wi-Fi identity and the cameras it has connected to are kept: a folder of the user's
/// state (`StateLocation`), `ptpip-guid` (mode 0600) and `wifi-cameras`.
public struct WiFiState: Sendable {
    public let folder: String

    public init(folder: String) {
        self.folder = folder
    }

    /// The state folder of `environment` (`$XDG_STATE_HOME/mediashell`); nil without a usable home.
    public init?(environment: [String: String]) {
        guard let folder = StateLocation.folder(environment: environment) else { return nil }
        self.folder = folder
    }

    var guidPath: String { folder + "/ptpip-guid" }
    var camerasPath: String { folder + "/wifi-cameras" }

    /// This computer's identity: the GUID kept in `ptpip-guid`, made at random the first time (two runs
    /// starting at once agree on one). A file that does not hold a GUID is `WiFiStateError.unreadableGUID`.
    public func identity() throws(WiFiStateError) -> WiFiIdentity {
        let text: String
        do throws(SystemError) {
            if let kept = try PrivateFile.text(at: guidPath) {
                text = kept
            } else {
                text = try PrivateFile.create(WiFiIdentity.text(WiFiIdentity.randomGUID()) + "\n", at: guidPath)
            }
        } catch {
            throw .system(error)
        }
        guard let guid = WiFiIdentity.parseGUID(text.trimmingWhitespace) else { throw .unreadableGUID(path: guidPath) }
        return WiFiIdentity(guid: guid, name: WiFiIdentity.hostName)
    }

    /// True when a camera at `host` has let this computer in before: a later connection is not its first
    /// contact, so no confirmation on the camera's screen is expected.
    public func knows(host: String) -> Bool {
        records().contains { $0.host == host }
    }

    /// Notes that the camera at `host` (its GUID and name from its handshake) let this computer in.
    public func remember(host: String, cameraGUID: [UInt8], name: String) throws(WiFiStateError) {
        var kept = records().filter { $0.host != host }
        kept.append(KnownCamera(host: host, guid: WiFiIdentity.text(cameraGUID), name: name))
        let text = kept.map { "\($0.host) \($0.guid) \($0.name.filter { !$0.isNewline })" }.joined(separator: "\n") + "\n"
        do throws(SystemError) { try PrivateFile.replace(camerasPath, with: text) } catch { throw .system(error) }
    }

    struct KnownCamera {
        var host: String
        var guid: String
        var name: String
    }

    func records() -> [KnownCamera] {
        guard let text = try? PrivateFile.text(at: camerasPath) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
            guard fields.count >= 2 else { return nil }
            return KnownCamera(host: String(fields[0]), guid: String(fields[1]), name: fields.count > 2 ? String(fields[2]) : "")
        }
    }
}

/// Why the Wi-Fi identity could not be read or kept.
public enum WiFiStateError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The state folder or file could not be read or written.
    case system(SystemError)
    /// `ptpip-guid` holds something other than 32 hexadecimal digits.
    case unreadableGUID(path: String)

    public var description: String {
        switch self {
        case .system(let error): error.description
        case .unreadableGUID(let path): "\(path) does not hold a GUID (32 hexadecimal digits)"
        }
    }
}

extension String {
    fileprivate var trimmingWhitespace: String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}

extension WiFiRefusal {
    /// The refusal PTP/IP's Init_Fail `reason` names.
    init(_ reason: InitFailReason) {
        switch reason {
        case .rejectedInitiator: self = .rejectedInitiator
        case .busy: self = .busy
        case .unspecified: self = .unspecified
        default: self = .other(reason.rawValue)
        }
    }
}
