import Checksums
import Foundation
import MediaManager

/// Where ledgers live and which ledger a camera's store uses: `$XDG_DATA_HOME/mediashell/imports/`
/// (else `~/.local/share/mediashell/imports/`), one file per camera, named by its serial number, or by
/// its model and the store's label when the camera reports no serial number.
public enum LedgerLocation {
    /// The folder holding the ledgers, from the environment.
    public static func folder(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            return data + "/mediashell/imports"
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home + "/.local/share/mediashell/imports"
    }

    /// The camera's key: "MANUFACTURER MODEL SERIAL", or "MANUFACTURER MODEL STORE-LABEL" without a usable
    /// serial number (empty, all zeros or blanks, as some cameras report).
    public static func cameraKey(manufacturer: String, model: String, serialNumber: String, storageLabel: String) -> String {
        let serial = serialNumber.trimmingCharacters(in: .whitespacesAndNewlines)
        let usable = !serial.isEmpty && !serial.allSatisfy { $0 == "0" || $0 == "-" || $0 == "." }
        let parts = [manufacturer, model, usable ? serial : "store " + storageLabel]
        return parts.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// A file name for `key`: letters, digits, `-`, `_` and `.` kept, anything else made `_`, bounded,
    /// and a short hash of the key so that two keys that read alike never share a file.
    public static func fileName(for key: String) -> String {
        var name = ""
        for scalar in key.unicodeScalars {
            let c = Character(scalar)
            if scalar.isASCII, c.isLetter || c.isNumber || c == "-" || c == "_" || c == "." {
                name.append(c)
            } else {
                name.append("_")
            }
        }
        while name.hasPrefix(".") { name = "_" + name.dropFirst() }
        if name.isEmpty { name = "camera" }
        // SHA-256, as ledgers were always named: the name of a camera's ledger never changes.
        return String(name.prefix(200)) + "-" + CryptoDigest.hexDigest(.sha256, of: Array(key.utf8)).prefix(8) + ".json"
    }
}
