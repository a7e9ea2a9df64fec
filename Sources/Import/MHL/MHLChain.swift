import Checksums
import Foundation
#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The chain of an ASC MHL history (`ascmhl/ascmhl_chain.xml`): each generation's number, file name and the
/// C4 ID of its bytes, so that a generation changed or removed since is found out.
struct MHLChain: Sendable, Equatable {
    struct Link: Sendable, Equatable {
        var number: Int
        /// The generation's file name in the `ascmhl` folder (a name, never a path).
        var fileName: String
        var c4: String
    }

    var links: [Link] = []

    static let fileName = "ascmhl_chain.xml"

    /// The chain as `ascmhldirectory` (`urn:ASC:MHL:DIRECTORY:v2.0`).
    func xml() -> [UInt8] {
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<ascmhldirectory xmlns=\"urn:ASC:MHL:DIRECTORY:v2.0\">\n"
        for link in links {
            out += "  <hashlist sequencenr=\"\(link.number)\">\n"
            out += "    <path>\(XMLText.escaped(link.fileName))</path>\n"
            out += "    <c4>\(XMLText.escaped(link.c4))</c4>\n"
            out += "  </hashlist>\n"
        }
        out += "</ascmhldirectory>\n"
        return Array(out.utf8)
    }

    /// The chain in `bytes` (read from `path`); a link whose file is not a plain name, whose number is not
    /// one, or whose ID is not a C4 ID fails it.
    static func read(_ bytes: [UInt8], path: String) throws(MHLError) -> MHLChain {
        guard !declaresDocumentType(bytes) else { throw MHLError(path, "it declares a document type (entities are refused)") }
        let collector = Collector()
        let parsed = collector.parse(bytes).parsed
        if let failure = collector.failure { throw MHLError(path, failure) }
        guard parsed, collector.sawRoot, collector.sawRootEnd else { throw MHLError(path, "not an ASC MHL chain (ascmhldirectory) in well-formed XML") }
        return collector.chain
    }

    private final class Collector: BoundedXMLCollector {
        var chain = MHLChain()
        private var link: Link?

        init() { super.init(maxDepth: 8, maxText: 4096) }

        override func rootProblem(_ name: String, namespace: String?, attributes: [String: String]) -> String? {
            name == "ascmhldirectory" ? nil : "its root is <\(name)>, not ascmhldirectory"
        }

        override func began(_ name: String, attributes: [String: String], parser: XMLParser) {
            guard stack == ["ascmhldirectory", "hashlist"] else { return }
            guard let number = attributes["sequencenr"].flatMap({ Int($0) }), (1...99_999_999).contains(number) else {
                return fail(parser, "a generation without a number (sequencenr)")
            }
            link = Link(number: number, fileName: "", c4: "")
        }

        override func ended(_ name: String, value: String, parser: XMLParser) {
            switch stack {
            case ["ascmhldirectory", "hashlist", "path"]:
                guard MHLPath.isSafe(value), !value.contains("/") else {
                    return fail(parser, "a generation named by a path, not a file name: '\(String(value.prefix(80)))'")
                }
                link?.fileName = value
            case ["ascmhldirectory", "hashlist", "c4"]:
                guard MHLHashText.checksum(.c4, value) != nil else { return fail(parser, "a generation's C4 ID is not one") }
                link?.c4 = value
            case ["ascmhldirectory", "hashlist"]:
                if let link {
                    guard !link.fileName.isEmpty, !link.c4.isEmpty else {
                        return fail(parser, "generation \(link.number) without its file name or C4 ID")
                    }
                    chain.links.append(link)
                }
                link = nil
            default: break
            }
        }
    }
}
