import Foundation
import MediaFormats
import POSIX

/// An XMP sidecar as photo managers read it (darktable, digiKam, Lightroom, exiftool): the fields of
/// `SidecarMetadata` under the names they use (XMP-dc creator, rights, subject, title, description; XMP-xmp
/// Rating, CreateDate, CreatorTool; XMP-photoshop DateCreated, the capture time).
public enum XMPSidecar {
    /// How a sidecar is named beside its file (`set sidecar-name`): photo managers differ.
    public enum Naming: String, Sendable, CaseIterable {
        /// `DJI_0001.JPG.xmp`: darktable's, and digiKam's by default (a RAW and its JPEG keep one each).
        case afterExtension = "ext"
        /// `DJI_0001.xmp`: Lightroom's and Capture One's (and digiKam's other choice).
        case replacingExtension = "base"

        /// The sidecar's path for the file at `path`.
        public func path(for path: String) -> String {
            switch self {
            case .afterExtension: return path + ".xmp"
            case .replacingExtension:
                let slash = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
                guard let dot = path[slash...].lastIndex(of: "."), dot != slash else { return path + ".xmp" }
                return String(path[..<dot]) + ".xmp"
            }
        }
    }

    /// The packet: `metadata` (tokens filled already) and the capture time.
    public static func packet(_ metadata: SidecarMetadata, captured: CaptureTime?, tool: String) -> String {
        var attributes = ["xmp:CreatorTool=\"\(XMLText.escaped(tool))\""]
        if let captured {
            attributes.append("xmp:CreateDate=\"\(captured.text)\"")
            attributes.append("photoshop:DateCreated=\"\(captured.text)\"")
        }
        if let rating = metadata.rating { attributes.append("xmp:Rating=\"\(rating)\"") }
        var elements: [String] = []
        if !metadata.creators.isEmpty { elements.append(container("dc:creator", "rdf:Seq", metadata.creators)) }
        if let copyright = metadata.copyright { elements.append(alternative("dc:rights", copyright)) }
        if !metadata.keywords.isEmpty { elements.append(container("dc:subject", "rdf:Bag", metadata.keywords)) }
        if let title = metadata.title { elements.append(alternative("dc:title", title)) }
        if let description = metadata.description { elements.append(alternative("dc:description", description)) }
        return """
            <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
            <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="\(XMLText.escaped(tool))">
             <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
              <rdf:Description rdf:about=""
                xmlns:dc="http://purl.org/dc/elements/1.1/"
                xmlns:xmp="http://ns.adobe.com/xap/1.0/"
                xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/"
                \(attributes.joined(separator: "\n    "))>
            \(elements.joined(separator: "\n"))
              </rdf:Description>
             </rdf:RDF>
            </x:xmpmeta>
            <?xpacket end="w"?>

            """
    }

    /// Writes the sidecar of the copy at `path` (whole or not at all); one already there (the camera's own,
    /// or a photo manager's edits) is never replaced: false then.
    @discardableResult
    public static func write(_ packet: String, beside path: String, naming: Naming) throws(SystemError) -> Bool {
        let sidecar = naming.path(for: path)
        if LocalDisk.exists(sidecar) { return false }
        try LocalDisk.writeAtomically(Array(packet.utf8), to: sidecar, durable: false)
        return true
    }

    private static func container(_ name: String, _ kind: String, _ items: [String]) -> String {
        let lines = items.map { "     <rdf:li>\(XMLText.escaped($0))</rdf:li>" }.joined(separator: "\n")
        return "   <\(name)>\n    <\(kind)>\n\(lines)\n    </\(kind)>\n   </\(name)>"
    }

    private static func alternative(_ name: String, _ text: String) -> String {
        "   <\(name)>\n    <rdf:Alt>\n     <rdf:li xml:lang=\"x-default\">\(XMLText.escaped(text))</rdf:li>\n    </rdf:Alt>\n   </\(name)>"
    }

}
