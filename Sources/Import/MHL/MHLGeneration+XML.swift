import Checksums
import Foundation
import MediaFormats

extension MHLGeneration {
    /// The generation as an ASC MHL v2.0 document (`hashlist`), in the schema's order: `creatorinfo`,
    /// `processinfo` (with the root's hashes and the ignore patterns), then `hashes` (files, then folders).
    public func xml() -> [UInt8] { xml(fileElements: files.map(Self.fileElement)) }

    /// The document with each file's `<hash>` element already made (`fileElement`, in `files`' order): a
    /// generation written again as it grows makes each element once, not at each write.
    func xml(fileElements: [String]) -> [UInt8] {
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <hashlist version="2.0" xmlns="urn:ASC:MHL:v2.0">
              <creatorinfo>
                <creationdate>\(MHLDates.text(created))</creationdate>
                <hostname>\(XMLText.escaped(hostname))</hostname>
                <tool version="\(XMLText.escaped(toolVersion))">\(XMLText.escaped(tool))</tool>
              </creatorinfo>
              <processinfo>
                <process>\(process.rawValue)</process>

            """
        if let rootHash {
            out += "    <roothash>\n"
            out += "      <content>\n        \(Self.hashElement(rootHash.content, action: nil, date: created))\n      </content>\n"
            out += "      <structure>\n        \(Self.hashElement(rootHash.structure, action: nil, date: created))\n      </structure>\n"
            out += "    </roothash>\n"
        }
        if !ignored.isEmpty {
            out += "    <ignore>\n"
            for pattern in ignored { out += "      <pattern>\(XMLText.escaped(pattern))</pattern>\n" }
            out += "    </ignore>\n"
        }
        out += "  </processinfo>\n"
        if !fileElements.isEmpty || !folders.isEmpty {
            out += "  <hashes>\n"
            for element in fileElements { out += element }
            for folder in folders {
                out += "    <directoryhash>\n      <path"
                if let modified = folder.modified { out += " lastmodificationdate=\"\(MHLDates.text(modified))\"" }
                out += ">\(XMLText.escaped(folder.path))</path>\n"
                out += "      <content>\n        \(Self.hashElement(folder.content, action: nil, date: created))\n      </content>\n"
                out += "      <structure>\n        \(Self.hashElement(folder.structure, action: nil, date: created))\n      </structure>\n"
                out += "    </directoryhash>\n"
            }
            out += "  </hashes>\n"
        }
        out += "</hashlist>\n"
        return Array(out.utf8)
    }

    /// A file's `<hash>` element, its lines ended.
    static func fileElement(_ file: File) -> String {
        var out = "    <hash>\n      <path"
        if let size = file.size { out += " size=\"\(size)\"" }
        if let modified = file.modified { out += " lastmodificationdate=\"\(MHLDates.text(modified))\"" }
        out += ">\(XMLText.escaped(file.path))</path>\n"
        for hash in inSchemaOrder(file.hashes) {
            out += "      \(hashElement(hash.checksum, action: hash.action, date: hash.date))\n"
        }
        return out + "    </hash>\n"
    }

    /// `<xxh128 action="original" hashdate="...">HEX</xxh128>`.
    static func hashElement(_ checksum: Checksum, action: Action?, date: Date?) -> String {
        let name = checksum.algorithm.rawValue
        var element = "<\(name)"
        if let action { element += " action=\"\(action.rawValue)\"" }
        if let date { element += " hashdate=\"\(MHLDates.text(date))\"" }
        return element + ">\(XMLText.escaped(checksum.hex))</\(name)>"
    }

    /// One hash per format, in the order the schema wants them (c4, md5, sha1, xxh128, xxh3, xxh64); a
    /// format ASC MHL does not name is left out.
    static func inSchemaOrder(_ hashes: [Hash]) -> [Hash] {
        formats.compactMap { format in hashes.first { $0.checksum.algorithm == format } }
    }
}

/// The times of an ASC MHL document: ISO 8601 in UTC, to the second, as `2026-12-07T14:23:11+00:00`, and
/// the time in a generation's file name, `2026-12-07_142311Z`. Made from the date's seconds by the civil
/// calendar's arithmetic (`CaptureTime`'s): a generation holds two times per file, which a `DateFormatter`
/// makes slowly.
enum MHLDates {
    static func text(_ date: Date) -> String {
        let t = parts(date)
        return "\(t.year)-\(two(t.month))-\(two(t.day))T\(two(t.hour)):\(two(t.minute)):\(two(t.second))+00:00"
    }

    static func fileNameText(_ date: Date) -> String {
        let t = parts(date)
        return "\(t.year)-\(two(t.month))-\(two(t.day))_\(two(t.hour))\(two(t.minute))\(two(t.second))Z"
    }

    /// The UTC calendar date and time of `date`, its fraction of a second dropped (toward the past). The
    /// year is written with at least four digits.
    static func parts(_ date: Date) -> (year: String, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let inDay = Int(seconds - days * 86_400)
        let (year, month, day) = CaptureTime.civil(fromDays: Int(days))
        let digits = String(abs(year))
        let padded = String(repeating: "0", count: max(0, 4 - digits.count)) + digits
        return (year < 0 ? "-" + padded : padded, month, day, inDay / 3_600, inDay / 60 % 60, inDay % 60)
    }

    private static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
