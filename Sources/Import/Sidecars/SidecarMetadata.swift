import Foundation

/// What an import writes into an XMP sidecar beside each file it brings (`import --meta FILE`, the settings
/// `creator`, `copyright`, `keywords`, `rating`): the fields photo managers read (Photo Mechanic's
/// "IPTC stationery"), never written into the photo's own bytes. A value may name `{tokens}` of the file:
/// `{camera}`, `{lens}`, `{date}` (YYYY-MM-DD), `{year}`, `{name}` (the file's name on the card).
public struct SidecarMetadata: Sendable, Equatable {
    /// dc:creator, in order.
    public var creators: [String] = []
    /// dc:rights.
    public var copyright: String?
    /// dc:subject.
    public var keywords: [String] = []
    /// xmp:Rating, 0 to 5 (-1 rejected).
    public var rating: Int?
    /// dc:title.
    public var title: String?
    /// dc:description.
    public var description: String?

    public init() {}

    /// Nothing to write.
    public var isEmpty: Bool {
        creators.isEmpty && copyright == nil && keywords.isEmpty && rating == nil && title == nil && description == nil
    }

    /// The keys a metadata file takes, one `key: value` a line (`#` starts a comment).
    public static let keys = ["creator", "copyright", "keywords", "rating", "title", "description"]

    /// Reads a metadata file: `creator: Ann Lee`, `keywords: drone, coast` (a list, split at commas),
    /// `rating: 4`. A key it does not know, a line without a colon or a rating out of range is an error that
    /// names the line.
    public init(parsing text: String) throws(SidecarMetadataError) {
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let colon = line.firstIndex(of: ":") else {
                throw .badLine(index + 1, "a line is 'key: value', such as 'creator: Ann Lee'")
            }
            let key = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            try set(key, to: value, line: index + 1)
        }
    }

    /// Sets one field from its text (a metadata file's line, or a setting's value).
    public mutating func set(_ key: String, to value: String, line: Int? = nil) throws(SidecarMetadataError) {
        let list = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        switch key {
        case "creator": creators = list
        case "copyright": copyright = value.isEmpty ? nil : value
        case "keywords": keywords = list
        case "rating":
            guard value.isEmpty || (Int(value).map { (-1...5).contains($0) } ?? false) else {
                throw .badLine(line ?? 0, "a rating is a whole number from 0 to 5 (-1: rejected)")
            }
            rating = Int(value)
        case "title": title = value.isEmpty ? nil : value
        case "description": description = value.isEmpty ? nil : value
        default: throw .badLine(line ?? 0, "'\(key)' is not a key it takes (\(Self.keys.joined(separator: ", ")))")
        }
    }

    /// These fields with `overrides`'s where it has them (a metadata file over the settings).
    public func merging(_ overrides: SidecarMetadata) -> SidecarMetadata {
        var merged = self
        if !overrides.creators.isEmpty { merged.creators = overrides.creators }
        if let copyright = overrides.copyright { merged.copyright = copyright }
        if !overrides.keywords.isEmpty { merged.keywords = overrides.keywords }
        if let rating = overrides.rating { merged.rating = rating }
        if let title = overrides.title { merged.title = title }
        if let description = overrides.description { merged.description = description }
        return merged
    }

    /// Every value with its `{tokens}` replaced by `values` (a token it has no value for becomes empty).
    public func filled(_ values: [String: String]) -> SidecarMetadata {
        func fill(_ text: String) -> String {
            var result = ""
            var rest = Substring(text)
            while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
                result += rest[..<open]
                let token = String(rest[rest.index(after: open)..<close])
                result += values[token] ?? ""
                rest = rest[rest.index(after: close)...]
            }
            return result + rest
        }
        var filled = self
        filled.creators = creators.map(fill)
        filled.copyright = copyright.map(fill)
        filled.keywords = keywords.map(fill).filter { !$0.isEmpty }
        filled.title = title.map(fill)
        filled.description = description.map(fill)
        return filled
    }
}

/// A metadata file (or setting) that cannot be read: the line and what it should be.
public enum SidecarMetadataError: Error, Sendable, Equatable, CustomStringConvertible {
    case badLine(Int, String)

    public var description: String {
        switch self {
        case .badLine(let line, let why): line > 0 ? "line \(line): \(why)" : why
        }
    }
}
