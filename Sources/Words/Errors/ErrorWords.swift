import CameraFacts
import Failures
import MediaFormats
import PTPFacts
import TextKit

/// The one place that turns an error from any layer into the sentence a user reads. Lower layers say the
/// facts; what to do about them (which command, which option) is added here, from the error's case.
public enum ErrorWords {
    /// The sentence for `error`, with what to do about it when there is something to do.
    public static func sentence(for error: Error) -> String {
        switch error {
        case let error as DownloadError: return sentence(for: error)
        case let error as ImportError: return sentence(for: error)
        case let error as PlaybackError: return sentence(for: error)
        case let error as UnreadableListing: return sentence(for: error)
        case PTPError.unanswered(let step):
            return "\(step) (the connection was taken but nothing answered; --debug-ptp FILE records each packet)"
        case let error as SystemError where error.path != nil: return LocalFailureWords.sentence(for: error)
        case let error as MediaFormatError:
            if case .system(let failure) = error.problem, failure.path != nil { return LocalFailureWords.sentence(for: failure) }
            return error.description
        case PTPError.response(let code, .deleteObject, _) where code == .objectWriteProtected || code == .storeReadOnly:
            return deleteRefused(code)
        case let error as any CameraOpenFailure: return sentence(for: error)
        case let error as FujiModeError: return sentence(for: error)
        case let error as CustomStringConvertible: return error.description
        case is CancellationError: return "cancelled"
        default: return String(describing: error)
        }
    }

    /// A delete the camera refused because the file or its card is write-protected: `the card is read-only: the
    /// camera keeps its files (store read-only, 0x200E: ...)`.
    private static func deleteRefused(_ code: ResponseCode) -> String {
        let what = code == .storeReadOnly ? "the card is read-only: the camera keeps its files" : "write-protected: the camera keeps it"
        let causes = code == .storeReadOnly ? "a locked card" : "a protected file, a locked card"
        return "\(what) (\(code), 0x\(String(code.rawValue, radix: 16, uppercase: true)): \(causes), or a card served read-only,"
            + " as mediashell serve and sim:PATH serve one without --writable)"
    }

    private static func sentence(for error: DownloadError) -> String {
        switch error {
        case .exists:
            return error.description + " (fetch again gives this file a unique name; fetch --force replaces it)"
        case .interrupted(let remoteName, _, let at, let size, let cause):
            if cause.isCancellation { return error.description + ", fetch again to resume" }
            let kept = at > 0 ? "\(at) of \(size) bytes kept in .part" : "none of its \(size) bytes written"
            return "\(remoteName): \(sentence(for: cause)) (\(kept))"
        case .local(let failure):
            return LocalFailureWords.sentence(for: failure)
        case .sizeMismatch, .overrun:
            return error.description
        case .notEnoughSpace(let needed, let available, let folder):
            return "not enough space in \(SafeText.display(folder)): the files need \(HumanReadable.size(needed)), "
                + "\(HumanReadable.size(available)) is free; nothing was written"
        }
    }

    private static func sentence(for error: ImportError) -> String {
        switch error {
        case .corruptLedger(let path, _):
            return error.description + ". Move it aside (mv '\(path)' '\(path).bad') to start a new ledger, "
                + "which treats every file as new"
        case .ledgerBusy: return error.description + "; run 'import' again when it ends"
        case .notEnoughSpace: return error.description + " (use --force to start anyway)"
        case .local(let failure): return LocalFailureWords.sentence(for: failure)
        case .badPattern, .appeared: return error.description
        case .backupMissing:
            return error.description + "; make it, or use --force to import without it (its files are then noted as missing there)"
        case .sourceChanged: return error.description + " ('verify' checks every copy)"
        case .copyReadBackWrong: return error.description + "; it is not recorded, so the next 'import' brings it again"
        case .notTheCamerasFile:
            return error.description + ": the camera's file stays on the camera; move that file aside and import again"
        }
    }

    /// `the camera named 5 objects but none had a name, so nothing can be listed: ...`.
    public static func sentence(for error: UnreadableListing) -> String {
        let count = error.lost.count
        let what =
            error.nameless == count ? (count == 1 ? "it had no name" : "none had a name")
            : error.nameless > 0 ? "\(error.nameless) had no name and the others could not be described"
            : (count == 1 ? "it could not be described" : "none could be described")
        let shown = error.lost.prefix(3).map(\.description).joined(separator: "; ")
        let more = count > 3 ? "; and \(count - 3) more" : ""
        return "the camera named \(count) object\(count == 1 ? "" : "s") but \(what), so nothing can be listed: "
            + shown + more + " ('refresh' reads it again; --debug-ptp FILE records what the camera sent)"
    }

    /// A camera that could not be opened, and what to do on it or with the address.
    private static func sentence(for error: any CameraOpenFailure) -> String {
        switch error.problem {
        case .speaksFuji(let fujiURL):
            return error.description + ": open \(fujiURL) (Fujifilm X bodies speak their own protocol on Wi-Fi)"
        case .httpServer:
            return error.description + " (check the address and the port: PTP/IP cameras listen on 15740)"
        case .fujifilmRefused:
            return error.description + ": on the camera, choose its Wi-Fi mode for a computer or phone"
                + " (\"Wireless communication\" or \"Smartphone\"; not \"PC AutoSave\") and confirm this computer when it asks"
        case .refused(let reason, let guid):
            switch reason {
            case .rejectedInitiator:
                return error.description + ": the camera does not accept this computer (GUID \(guid)). Pair it again"
                    + " from the camera's Wi-Fi menu and confirm on its screen; a camera that accepts only a registered"
                    + " GUID (Sony) needs 'set ptpip-guid HEX' (or --ptpip-guid) with that one"
            case .busy:
                return error.description + ": the camera is connected to another device; end that connection (a phone"
                    + " app, another computer) or restart the camera's Wi-Fi, then open again"
            case .unspecified, .other:
                return error.description + ": choose the camera's Wi-Fi mode for a computer, confirm this computer if"
                    + " it asks, then open again ('set ptpip-guid' shows the GUID it is given)"
            }
        case .notConfirmed:
            return error.description + ": confirm the connection on the camera's screen when it asks, then open again"
                + " (on some cameras: pair with a computer from the Wi-Fi menu first)"
        case .other:
            return error.description
        }
    }

    /// What a Fujifilm body in the wrong Wi-Fi mode refuses, and the mode to choose on it.
    private static func sentence(for error: FujiModeError) -> String {
        switch error {
        case .waitingForAccess:
            return error.description + ": allow it on the camera when it asks, then open it again"
        case .pcAutoSave:
            return error.description + ": on the camera choose \"Wireless communication\" (or \"Smartphone\"/"
                + "\"Connect to smartphone\") instead, join its network, then open fuji:HOST"
        case .unknownState:
            return error.description + ": choose \"Wireless communication\" on the camera"
        case .noRemoteCapture:
            return error.description + " (browsing and downloads work; capture over Wi-Fi needs a body with remote mode,"
                + " in \"Wireless communication\" or \"Remote shooting\")"
        }
    }

    private static func sentence(for error: PlaybackError) -> String {
        if error.kind == .nothingLoaded { return error.description + ": play NAME first" }
        guard let refusal = error.refusal else { return error.description }
        switch (refusal.operation, refusal.state) {
        case (.resume, .stopped): return "\(refusal.name) is stopped: use play to start it"
        case (.resume, .ended): return "\(refusal.name) has ended: seek back, or play to start over"
        case (.step, _): return "step works while paused: pause \(refusal.name) first"
        default: return error.description
        }
    }
}
