import CommandKit
import Foundation

@testable import Shell
@testable import TerminalKit

/// An in-memory camera for completion tests: folders by path ("" is the current folder), and a local base
/// folder for local paths.
final class FakeCatalog: CompletionContext {
    var folders: [String: [CompletionEntry]]
    var localBase: String?
    private var cache: [String: NameIndex] = [:]
    private(set) var remoteListings = 0

    init(_ folders: [String: [CompletionEntry]], localBase: String? = nil) {
        self.folders = folders
        self.localBase = localBase
    }

    func remoteEntries(inFolder folder: String) -> NameIndex {
        if let cached = cache[folder] { return cached }
        remoteListings += 1
        let index = NameIndex(folders[folder] ?? [])
        cache[folder] = index
        return index
    }

    func localEntries(inFolder folder: String) -> NameIndex {
        LocalFiles.index(ofFolder: folder, relativeTo: localBase)
    }

    func settingNames() -> [String] { ["errexit", "overwrite", "progress", "timeout"] }
}

extension CompletionEngine {
    /// Completes a line whose cursor is marked with `|`; returns the new marked line and the candidates.
    func complete(marked: String, in context: some CompletionContext) -> (line: String, candidates: [String]) {
        let input = MarkedText(marked)
        let result = complete(input.text, cursor: input.cursor, context: context)
        let (line, cursor) = result.applied(to: input.text)
        return (MarkedText.mark(line, cursor: cursor), result.candidates)
    }
}
