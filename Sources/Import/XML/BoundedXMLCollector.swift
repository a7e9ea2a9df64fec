import Foundation
#if canImport(FoundationXML)
    import FoundationXML
#endif

/// What a reader of an XML document from disk needs around its own facts: the first fault (which stops the
/// parser), the path of elements open, each element's text (bounded), a depth bound, and whether the root
/// element began and ended (XMLParser accepts a document cut short). A subclass checks the root in
/// `beginRoot`, and reads its facts in `began` and `ended`, with `stack` naming where it is.
class BoundedXMLCollector: NSObject, XMLParserDelegate {
    var failure: String?
    private(set) var sawRoot = false
    /// The root element ended: the document is whole.
    private(set) var sawRootEnd = false
    /// The elements open, the root first.
    private(set) var stack: [String] = []
    private var text = ""
    let maxDepth: Int
    let maxText: Int

    init(maxDepth: Int, maxText: Int) {
        self.maxDepth = maxDepth
        self.maxText = maxText
    }

    /// Parses `bytes` into this collector, namespaces processed and no external entity resolved (a document
    /// type is refused before, by `declaresDocumentType`). True when the parser reached the end; false with
    /// the line it stopped at and its error.
    func parse(_ bytes: [UInt8]) -> (parsed: Bool, line: Int, error: String?) {
        let parser = XMLParser(data: Data(bytes))
        parser.shouldProcessNamespaces = true
        parser.shouldResolveExternalEntities = false
        parser.delegate = self
        let parsed = parser.parse()
        return (parsed, parser.lineNumber, parser.parserError.map { "\($0.localizedDescription)" })
    }

    /// Stops the parser; the first fault is the one said.
    func fail(_ parser: XMLParser, _ why: String) {
        if failure == nil { failure = why }
        parser.abortParsing()
    }

    /// The root element's name and attributes: nil when it is the document expected, else why not.
    func rootProblem(_ name: String, namespace: String?, attributes: [String: String]) -> String? { nil }

    /// An element began (already on `stack`).
    func began(_ name: String, attributes: [String: String], parser: XMLParser) {}

    /// An element ended (still on `stack`), with its text trimmed.
    func ended(_ name: String, value: String, parser: XMLParser) {}

    final func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        guard failure == nil else { return }
        guard stack.count < maxDepth else { return fail(parser, "nested too deep") }
        if stack.isEmpty {
            if let problem = rootProblem(name, namespace: namespaceURI, attributes: attributes) { return fail(parser, problem) }
            sawRoot = true
        }
        stack.append(name)
        text = ""
        began(name, attributes: attributes, parser: parser)
    }

    final func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard failure == nil else { return }
        guard text.utf8.count + string.utf8.count <= maxText else { return fail(parser, "an element's text is too long") }
        text += string
    }

    final func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        guard failure == nil else { return }
        ended(name, value: text.trimmingCharacters(in: .whitespacesAndNewlines), parser: parser)
        guard failure == nil else { return }
        stack.removeLast()
        if stack.isEmpty { sawRootEnd = true }
        text = ""
    }
}
