/// A glob as a path: the patterns between its slashes, and its escapes taken away where a part is a name.
extension GlobPattern {
    /// Splits a glob source at its unescaped slashes: the parts, whether it started at the top, and
    /// whether a trailing slash asks for folders only.
    public static func pathParts(_ source: String) -> (parts: [String], absolute: Bool, foldersOnly: Bool) {
        var parts: [String] = []
        var part = ""
        var escaping = false
        for character in source {
            if escaping {
                part.append(character)
                escaping = false
            } else if character == "\\" {
                part.append(character)
                escaping = true
            } else if character == "/" {
                if !part.isEmpty { parts.append(part) }
                part = ""
            } else {
                part.append(character)
            }
        }
        if !part.isEmpty { parts.append(part) }
        if parts.isEmpty { parts = ["."] }
        return (parts, source.hasPrefix("/"), source.hasSuffix("/") && source.count > 1)
    }

    /// A pattern part without its escapes: `a\*b` is the name `a*b`.
    public static func unescape(_ text: String) -> String {
        var result = ""
        var escaping = false
        for character in text {
            if !escaping && character == "\\" {
                escaping = true
                continue
            }
            escaping = false
            result.append(character)
        }
        return result
    }
}
