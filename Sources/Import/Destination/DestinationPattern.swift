import Foundation
import MediaManager

/// Where an imported file goes: a path with tokens, such as `~/Pictures/%Y/%Y-%m-%d/%f`.
///
/// Tokens: `%Y %m %d %H %M %S` the capture date and time (EXIF DateTimeOriginal where the file has it,
/// else the device's date, else the time of the import); `%f` the card's file name, `%b` that name
/// without its extension, `%e` its extension; `%F` the folder on the card that holds it (`100MEDIA`);
/// `%c` the camera model; `%n` a sequence number (4 digits, counting on across imports); `%%` a `%`.
/// A pattern whose last part names no file (`DIR/%Y/%m-%d`) is a folder: `/%f` is added.
/// Values from the device are made safe before use: they never add a `/` or a `..`.
public struct DestinationPattern: Sendable, Equatable {
    public let text: String
    /// The parts between `/`, each a list of literal text and tokens.
    let parts: [[Piece]]
    let absolute: Bool

    enum Piece: Sendable, Equatable {
        case literal(String)
        case token(Character)
    }

    static let tokens: Set<Character> = ["Y", "m", "d", "H", "M", "S", "f", "b", "e", "F", "c", "n"]
    static let fileTokens: Set<Character> = ["f", "b", "n"]

    /// Parses `text` (with `~` already expanded by the caller).
    public init(_ text: String) throws(ImportError) {
        guard !text.isEmpty else { throw .badPattern(pattern: text, reason: "it is empty") }
        self.text = text
        absolute = text.hasPrefix("/")
        var parts: [[Piece]] = []
        for component in text.split(separator: "/", omittingEmptySubsequences: true) {
            var pieces: [Piece] = []
            var literal = ""
            var chars = component.makeIterator()
            while let c = chars.next() {
                guard c == "%" else {
                    literal.append(c)
                    continue
                }
                guard let t = chars.next() else { throw .badPattern(pattern: text, reason: "it ends with a lone %") }
                if t == "%" {
                    literal.append("%")
                    continue
                }
                guard Self.tokens.contains(t) else {
                    throw .badPattern(
                        pattern: text, reason: "unknown token %\(t) (tokens: %Y %m %d %H %M %S %f %b %e %F %c %n %%)")
                }
                if !literal.isEmpty { pieces.append(.literal(literal)) }
                literal = ""
                pieces.append(.token(t))
            }
            if !literal.isEmpty { pieces.append(.literal(literal)) }
            if pieces == [.literal(".")] { continue }
            if pieces == [.literal("..")] && parts.contains(where: { $0.contains { if case .token = $0 { true } else { false } } }) {
                throw .badPattern(pattern: text, reason: "'..' after a token")
            }
            parts.append(pieces)
        }
        guard !parts.isEmpty else { throw .badPattern(pattern: text, reason: "it names no folder") }
        let last = parts[parts.count - 1]
        if !last.contains(where: { if case .token(let t) = $0 { Self.fileTokens.contains(t) } else { false } }) {
            parts.append([.token("f")])
        }
        self.parts = parts
    }

    /// The folder before the first token: where the import writes, for the free-space check and the sync.
    public var fixedRoot: String {
        var fixed: [String] = []
        for part in parts.dropLast() {
            guard part.allSatisfy({ if case .literal = $0 { true } else { false } }) else { break }
            fixed.append(part.map { if case .literal(let s) = $0 { s } else { "" } }.joined())
        }
        let joined = fixed.joined(separator: "/")
        return absolute ? "/" + joined : (joined.isEmpty ? "." : joined)
    }

    /// True when the pattern uses the capture date or time (the EXIF date is then worth reading).
    public var usesDate: Bool {
        parts.contains { $0.contains { if case .token(let t) = $0 { "YmdHMS".contains(t) } else { false } } }
    }

    /// The local path for a file with these values. The user's literal text is kept as written; a part
    /// with a token in it is made safe as a whole (length, a leading dot, an empty value).
    public func path(for values: PatternValues) -> String {
        // The date's fields are worked out once for the path (a calendar's are not cheap: a thousand photos
        // are placed several times in one import), and only when a token asks for them.
        let date = usesDate ? values.dateFields() : nil
        let rendered = parts.map { part -> String in
            var hasToken = false
            let text = part.map { piece -> String in
                switch piece {
                case .literal(let s): return s
                case .token(let t):
                    hasToken = true
                    return values.text(for: t, date: date)
                }
            }.joined()
            return hasToken ? LocalFileName.sanitize(text) : text
        }
        // A relative pattern of one part (`%f`, `./%f`) writes into the current folder: its path says so,
        // so that the folder of the path is "." and not "".
        if absolute { return "/" + rendered.joined(separator: "/") }
        return rendered.count == 1 ? "./" + rendered[0] : rendered.joined(separator: "/")
    }
}

/// The values a pattern's tokens take for one file.
public struct PatternValues: Sendable {
    /// The file's local name (already sanitized) from the card's name.
    public var fileName: String
    /// The name of the folder on the card holding the file ("" at the root).
    public var cardFolder: String
    public var cameraModel: String
    /// The capture time (EXIF, else device, else now).
    public var date: Date
    public var sequence: Int
    public var timeZone: TimeZone

    public init(fileName: String, cardFolder: String, cameraModel: String, date: Date, sequence: Int, timeZone: TimeZone = .current) {
        self.fileName = fileName
        self.cardFolder = cardFolder
        self.cameraModel = cameraModel
        self.date = date
        self.sequence = sequence
        self.timeZone = timeZone
    }

    /// The calendar fields of `date` in `timeZone`: year, month, day, hour, minute, second.
    struct DateFields {
        var year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0
    }

    func dateFields() -> DateFields {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return DateFields(
            year: c.year ?? 0, month: c.month ?? 0, day: c.day ?? 0, hour: c.hour ?? 0, minute: c.minute ?? 0,
            second: c.second ?? 0)
    }

    /// A token's text; `date` holds the date's fields (worked out here when not given).
    func text(for token: Character, date given: DateFields? = nil) -> String {
        func padded(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return value >= 0 && digits.count < width ? String(repeating: "0", count: width - digits.count) + digits : digits
        }
        func date() -> DateFields { given ?? dateFields() }
        let dot = fileName.lastIndex(of: ".").flatMap { $0 == fileName.startIndex ? nil : $0 }
        switch token {
        case "Y": return padded(date().year, 4)
        case "m": return padded(date().month, 2)
        case "d": return padded(date().day, 2)
        case "H": return padded(date().hour, 2)
        case "M": return padded(date().minute, 2)
        case "S": return padded(date().second, 2)
        case "f": return fileName
        case "b": return dot.map { String(fileName[..<$0]) } ?? fileName
        case "e": return dot.map { String(fileName[fileName.index(after: $0)...]) } ?? ""
        case "F": return LocalFileName.sanitize(cardFolder.split(separator: "/").last.map(String.init) ?? "card")
        case "c": return LocalFileName.sanitize(cameraModel.isEmpty ? "camera" : cameraModel)
        case "n": return padded(sequence, 4)
        default: return ""
        }
    }
}
