import Checksums
import Foundation
#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Reads an ASC MHL generation (`hashlist`, v2.0) into what `verify` and the next generation need: each
/// file's path, size and hashes with their actions, and the ignore patterns. Folder hashes, authors and
/// metadata are passed over. The document may come from anyone: it is read in one bounded piece, without
/// external entities or a DTD's, nested no deeper than `maxDepth`, and a path that is absolute, climbs out
/// with `..` or holds a NUL, a hash that is not its format's, a size that is not a number, all fail it.
enum MHLGenerationReader {
    static let maxDepth = 32

    static func read(_ bytes: [UInt8], path: String) throws(MHLError) -> MHLGeneration {
        guard !declaresDocumentType(bytes) else { throw MHLError(path, "it declares a document type (entities are refused)") }
        let collector = Collector()
        let outcome = collector.parse(bytes)
        if let failure = collector.failure { throw MHLError(path, failure) }
        guard outcome.parsed else {
            throw MHLError(path, "not well-formed XML (line \(outcome.line): \(outcome.error ?? "parse error"))")
        }
        guard collector.sawRoot else { throw MHLError(path, "no ASC MHL hashlist in it") }
        guard collector.sawRootEnd else { throw MHLError(path, "not well-formed XML (it ends inside its hashlist)") }
        return collector.generation
    }

    /// Gathers the facts as the parser meets them; the first fault stops it.
    private final class Collector: BoundedXMLCollector {
        var generation = MHLGeneration(
            created: Date(timeIntervalSince1970: 0), hostname: "", tool: "", toolVersion: "", process: .inPlace, ignored: [])
        private var file: MHLGeneration.File?
        private var hashAction: MHLGeneration.Action?

        init() { super.init(maxDepth: MHLGenerationReader.maxDepth, maxText: 1 << 16) }

        override func rootProblem(_ name: String, namespace: String?, attributes: [String: String]) -> String? {
            guard name == "hashlist", namespace == "urn:ASC:MHL:v2.0" else { return "its root is <\(name)>, not an ASC MHL v2.0 hashlist" }
            return attributes["version"] == "2.0" ? nil : "not version 2.0 of ASC MHL"
        }

        override func began(_ name: String, attributes: [String: String], parser: XMLParser) {
            switch stack {
            case ["hashlist", "hashes", "hash"]:
                file = MHLGeneration.File(path: "", size: nil, modified: nil, hashes: [])
            case ["hashlist", "hashes", "hash", "path"]:
                if let size = attributes["size"] {
                    guard let value = UInt64(size) else { return fail(parser, "a size that is not a number: '\(size.prefix(40))'") }
                    file?.size = value
                }
            case _ where stack.count == 4 && stack.prefix(3) == ["hashlist", "hashes", "hash"]:
                hashAction = nil
                if let action = attributes["action"] {
                    guard let known = MHLGeneration.Action(rawValue: action) else {
                        return fail(parser, "an action that is not original, verified or failed: '\(action.prefix(40))'")
                    }
                    hashAction = known
                }
            default: break
            }
        }

        override func ended(_ name: String, value: String, parser: XMLParser) {
            switch stack {
            case ["hashlist", "creatorinfo", "hostname"]: generation.hostname = value
            case ["hashlist", "creatorinfo", "tool"]: generation.tool = value
            case ["hashlist", "processinfo", "process"]:
                generation.process = MHLGeneration.Process(rawValue: value) ?? .inPlace
            case ["hashlist", "processinfo", "ignore", "pattern"]: generation.ignored.append(value)
            case ["hashlist", "hashes", "hash", "path"]:
                guard MHLPath.isSafe(value) else {
                    return fail(parser, "a path that is not inside the root: '\(String(value.prefix(80)))'")
                }
                file?.path = value
            case ["hashlist", "hashes", "hash"]:
                if let file {
                    guard !file.path.isEmpty else { return fail(parser, "a hash without a path") }
                    generation.files.append(file)
                }
                file = nil
            case _ where stack.count == 4 && stack.prefix(3) == ["hashlist", "hashes", "hash"]:
                // A format we cannot compute (xxh32, a newer one) is passed over; one we can must be well formed.
                if let algorithm = Checksum.Algorithm(rawValue: name), MHLGeneration.formats.contains(algorithm) {
                    guard let checksum = MHLHashText.checksum(algorithm, value) else {
                        return fail(parser, "a \(name) hash that is not one: '\(String(value.prefix(100)))'")
                    }
                    file?.hashes.append(MHLGeneration.Hash(checksum, action: hashAction, date: nil))
                }
            default: break
            }
        }
    }
}

/// True when `bytes` hold a document type declaration (`<!DOCTYPE`): ASC MHL has none, and it is where
/// entities are declared (one expanding into a billion, one reading a file of this computer), which the
/// parser is never given.
func declaresDocumentType(_ bytes: [UInt8]) -> Bool {
    let mark = Array("<!DOCTYPE".utf8)
    guard bytes.count >= mark.count else { return false }
    var index = 0
    while let found = bytes[index...].firstIndex(of: UInt8(ascii: "<")), found + mark.count <= bytes.count {
        if bytes[found..<found + mark.count].elementsEqual(mark) { return true }
        index = found + 1
    }
    return false
}

/// The paths an ASC MHL history names: relative to its root, `/` between folders.
enum MHLPath {
    /// True for a path that stays inside the root: not empty, not absolute, no `.` or `..` or empty part,
    /// no NUL.
    static func isSafe(_ path: String) -> Bool {
        guard !path.isEmpty, !path.hasPrefix("/"), !path.contains("\u{0}"), path.utf8.count <= 4096 else { return false }
        return path.split(separator: "/", omittingEmptySubsequences: false).allSatisfy { $0 != "" && $0 != "." && $0 != ".." }
    }
}

/// A hash's text as ASC MHL writes it: lowercase hex of the format's length, or a C4 ID.
enum MHLHashText {
    static func checksum(_ algorithm: Checksum.Algorithm, _ text: String) -> Checksum? {
        guard text.utf8.count == algorithm.hexLength else { return nil }
        if algorithm == .c4 {
            let alphabet = Set("123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz")
            guard text.hasPrefix("c4"), text.dropFirst(2).allSatisfy(alphabet.contains) else { return nil }
            return Checksum(.c4, hex: text)
        }
        let lower = text.lowercased()
        guard lower.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else { return nil }
        return Checksum(algorithm, hex: lower)
    }
}
