import POSIX

/// The names of one folder, sorted once so that each Tab finds a prefix by binary search.
///
/// Matching is case-sensitive first; when nothing matches, a case-insensitive index (built on first use and
/// kept) is searched, so `dji<Tab>` still finds `DJI_0001.JPG`.
public final class NameIndex: Sendable {
    /// An entry with the text shown in a candidate list: made safe to print, folders ending in `/`.
    public struct Item: Sendable {
        public let entry: CompletionEntry
        public let display: String

        public init(entry: CompletionEntry, display: String) {
            self.entry = entry
            self.display = display
        }
    }

    private let items: [Item]
    private let folders: [Item]
    private let foldedIndex = Locked<FoldedIndex?>(nil)

    private struct FoldedIndex: Sendable {
        var keys: [String]
        var order: [Int]
    }

    /// Sorts `entries` by name; duplicates are kept.
    public init(_ entries: some Sequence<CompletionEntry>) {
        let sorted = entries.sorted { $0.name < $1.name }
        items = sorted.map { Item(entry: $0, display: SafeText.display($0.isFolder ? $0.name + "/" : $0.name)) }
        folders = items.filter(\.entry.isFolder)
    }

    /// An index of plain names (no folders).
    public convenience init(names: some Sequence<String>) {
        self.init(names.map { CompletionEntry($0) })
    }

    /// No names at all.
    public static let empty = NameIndex([])

    /// Every entry, sorted by name.
    public var entries: [CompletionEntry] { items.map(\.entry) }

    public var count: Int { items.count }

    /// The entries starting with `prefix`, sorted; case-insensitive (and flagged so) when nothing matches
    /// exactly. Names starting with `.` are left out unless `prefix` starts with `.`.
    public func matches(prefix: String, foldersOnly: Bool = false) -> (items: [Item], ignoredCase: Bool) {
        let source = foldersOnly ? folders : items
        if prefix.isEmpty {
            // Hidden names sort together: cut their block out.
            let hidden = Self.prefixRange(of: ".", in: source) { $0.entry.name }
            return (Array(source[..<hidden.lowerBound] + source[hidden.upperBound...]), false)
        }
        let range = Self.prefixRange(of: prefix, in: source) { $0.entry.name }
        if !range.isEmpty { return (Array(source[range]), false) }

        let folded = foldedIndex.withLock { cache -> FoldedIndex in
            if let cache { return cache }
            let keys = items.map { $0.entry.name.lowercased() }
            let order = keys.indices.sorted { keys[$0] < keys[$1] }
            let index = FoldedIndex(keys: order.map { keys[$0] }, order: order)
            cache = index
            return index
        }
        let includeHidden = prefix.hasPrefix(".")
        let foldedRange = Self.prefixRange(of: prefix.lowercased(), in: folded.keys) { $0 }
        var insensitive = folded.order[foldedRange].map { items[$0] }
        insensitive.removeAll { (foldersOnly && !$0.entry.isFolder) || (!includeHidden && $0.entry.name.hasPrefix(".")) }
        insensitive.sort { $0.entry.name < $1.entry.name }
        return (insensitive, !insensitive.isEmpty)
    }
    /// The contiguous range of sorted `items` whose key starts with `prefix`.
    public static func prefixRange<T>(of prefix: String, in items: [T], key: (T) -> String) -> Range<Int> {
        guard !prefix.isEmpty else { return items.indices }
        var low = 0
        var high = items.count
        while low < high {
            let mid = (low + high) / 2
            if key(items[mid]) < prefix { low = mid + 1 } else { high = mid }
        }
        let start = low
        high = items.count
        while low < high {
            let mid = (low + high) / 2
            if key(items[mid]).hasPrefix(prefix) { low = mid + 1 } else { high = mid }
        }
        return start..<low
    }
}
