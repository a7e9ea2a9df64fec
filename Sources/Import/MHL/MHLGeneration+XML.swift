import Checksums
import Foundation

extension MHLGeneration {
    /// The generation as an ASC MHL v2.0 document (`hashlist`), in the schema's order: `creatorinfo`,
    /// `processinfo` (with the root's hashes and the ignore patterns), then `hashes` (files, then folders).
    public func xml() -> [UInt8] {
        let dates = MHLDates()
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <hashlist version="2.0" xmlns="urn:ASC:MHL:v2.0">
              <creatorinfo>
                <creationdate>\(dates.text(created))</creationdate>
                <hostname>\(XMLText.escaped(hostname))</hostname>
                <tool version="\(XMLText.escaped(toolVersion))">\(XMLText.escaped(tool))</tool>
              </creatorinfo>
              <processinfo>
                <process>\(process.rawValue)</process>

            """
        if let rootHash {
            out += "    <roothash>\n"
            out += "      <content>\n        \(Self.hashElement(rootHash.content, action: nil, date: created, dates))\n      </content>\n"
            out += "      <structure>\n        \(Self.hashElement(rootHash.structure, action: nil, date: created, dates))\n      </structure>\n"
            out += "    </roothash>\n"
        }
        if !ignored.isEmpty {
            out += "    <ignore>\n"
            for pattern in ignored { out += "      <pattern>\(XMLText.escaped(pattern))</pattern>\n" }
            out += "    </ignore>\n"
        }
        out += "  </processinfo>\n"
        if !files.isEmpty || !folders.isEmpty {
            out += "  <hashes>\n"
            for file in files {
                out += "    <hash>\n      <path"
                if let size = file.size { out += " size=\"\(size)\"" }
                if let modified = file.modified { out += " lastmodificationdate=\"\(dates.text(modified))\"" }
                out += ">\(XMLText.escaped(file.path))</path>\n"
                for hash in Self.inSchemaOrder(file.hashes) {
                    out += "      \(Self.hashElement(hash.checksum, action: hash.action, date: hash.date, dates))\n"
                }
                out += "    </hash>\n"
            }
            for folder in folders {
                out += "    <directoryhash>\n      <path"
                if let modified = folder.modified { out += " lastmodificationdate=\"\(dates.text(modified))\"" }
                out += ">\(XMLText.escaped(folder.path))</path>\n"
                out += "      <content>\n        \(Self.hashElement(folder.content, action: nil, date: created, dates))\n      </content>\n"
                out += "      <structure>\n        \(Self.hashElement(folder.structure, action: nil, date: created, dates))\n      </structure>\n"
                out += "    </directoryhash>\n"
            }
            out += "  </hashes>\n"
        }
        out += "</hashlist>\n"
        return Array(out.utf8)
    }

    /// `<xxh128 action="original" hashdate="...">HEX</xxh128>`.
    static func hashElement(_ checksum: Checksum, action: Action?, date: Date?, _ dates: MHLDates) -> String {
        let name = checksum.algorithm.rawValue
        var element = "<\(name)"
        if let action { element += " action=\"\(action.rawValue)\"" }
        if let date { element += " hashdate=\"\(dates.text(date))\"" }
        return element + ">\(XMLText.escaped(checksum.hex))</\(name)>"
    }

    /// One hash per format, in the order the schema wants them (c4, md5, sha1, xxh128, xxh3, xxh64); a
    /// format ASC MHL does not name is left out.
    static func inSchemaOrder(_ hashes: [Hash]) -> [Hash] {
        formats.compactMap { format in hashes.first { $0.checksum.algorithm == format } }
    }
}

/// The times of an ASC MHL document: ISO 8601 in UTC, to the second, as `2026-12-07T14:23:11+00:00`.
struct MHLDates {
    private let formatter: DateFormatter

    init() {
        formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ssxxx"
    }

    func text(_ date: Date) -> String { formatter.string(from: date) }

    /// The time in a generation's file name, `2026-12-07_142311Z`.
    static func fileNameText(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd_HHmmss'Z'"
        return formatter.string(from: date)
    }
}
