/// A shell wildcard pattern (`*`, `?`, `[abc]`, `[a-z]`, `[!x]`, `\x` for a literal x) matched against one name.
///
/// Matching is case-sensitive and works on characters; `*` also matches a leading dot or a `/`.
/// A `[` with no closing `]` is an ordinary character.
public struct GlobPattern: Sendable, Hashable, CustomStringConvertible {
    enum Element: Sendable, Hashable {
        case literal(Character)
        case anyCharacter
        case anySequence
        case set(CharacterSet, negated: Bool)
    }

    struct CharacterSet: Sendable, Hashable {
        var characters: Set<Character> = []
        var ranges: [ClosedRange<Character>] = []

        func contains(_ c: Character) -> Bool {
            characters.contains(c) || ranges.contains { $0.contains(c) }
        }
    }

    /// The pattern as written (backslashes included).
    public let source: String
    let elements: [Element]

    /// Compiles a pattern; every string is a valid pattern.
    public init(_ source: String) {
        self.source = source
        elements = Self.compile(Array(source))
    }

    /// True when the pattern holds a wildcard, i.e. can match something other than one literal name.
    public var hasWildcards: Bool {
        elements.contains { if case .literal = $0 { false } else { true } }
    }

    public var description: String { source }

    /// True when `name` matches the whole pattern.
    public func matches(_ name: String) -> Bool {
        let name = Array(name)
        var p = 0
        var n = 0
        var starAt: Int?
        var starMatched = 0
        // Classic wildcard matching with one backtrack point: O(pattern × name), never exponential.
        while n < name.count {
            if p < elements.count, Self.matchesOne(elements[p], name[n]) {
                p += 1
                n += 1
            } else if p < elements.count, elements[p] == .anySequence {
                starAt = p
                starMatched = n
                p += 1
            } else if let star = starAt {
                p = star + 1
                starMatched += 1
                n = starMatched
            } else {
                return false
            }
        }
        while p < elements.count, elements[p] == .anySequence { p += 1 }
        return p == elements.count
    }

    /// The names that match, in their original order.
    public func filter<S: Sequence<String>>(_ names: S) -> [String] {
        names.filter(matches)
    }

    private static func matchesOne(_ element: Element, _ c: Character) -> Bool {
        switch element {
        case .literal(let l): l == c
        case .anyCharacter: true
        case .anySequence: false
        case .set(let set, let negated): set.contains(c) != negated
        }
    }

    private static func compile(_ chars: [Character]) -> [Element] {
        var elements: [Element] = []
        var i = 0
        while i < chars.count {
            let c = chars[i]
            switch c {
            case "*":
                if elements.last != .anySequence { elements.append(.anySequence) }
                i += 1
            case "?":
                elements.append(.anyCharacter)
                i += 1
            case "\\" where i + 1 < chars.count:
                elements.append(.literal(chars[i + 1]))
                i += 2
            case "[":
                if let (set, next) = compileSet(chars, from: i) {
                    elements.append(set)
                    i = next
                } else {
                    elements.append(.literal("["))
                    i += 1
                }
            default:
                elements.append(.literal(c))
                i += 1
            }
        }
        return elements
    }

    /// Parses `[...]` starting at `start` (the `[`); nil when there is no closing `]`.
    private static func compileSet(_ chars: [Character], from start: Int) -> (Element, Int)? {
        var i = start + 1
        var negated = false
        if i < chars.count, chars[i] == "!" || chars[i] == "^" {
            negated = true
            i += 1
        }
        var members: [Character] = []
        var set = CharacterSet()
        var first = true
        while i < chars.count {
            var c = chars[i]
            if c == "]" && !first { break }
            first = false
            if c == "\\", i + 1 < chars.count {
                i += 1
                c = chars[i]
            }
            // A range a-z, unless the '-' is last in the set.
            if i + 2 < chars.count, chars[i + 1] == "-", chars[i + 2] != "]" {
                var upper = chars[i + 2]
                var skip = 3
                if upper == "\\", i + 3 < chars.count {
                    upper = chars[i + 3]
                    skip = 4
                }
                if c <= upper { set.ranges.append(c...upper) }
                i += skip
                continue
            }
            members.append(c)
            i += 1
        }
        guard i < chars.count else { return nil }
        set.characters = Set(members)
        return (.set(set, negated: negated), i + 1)
    }
}
