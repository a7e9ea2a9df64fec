import Foundation

/// The quirks a virtual camera imitates, parsed from `a,b,...` as `serve --quirks` takes them. Named
/// presets stand for the peers they were seen in (`umtp`, `vcamera`).
public struct Quirks: Sendable, Equatable, ExpressibleByArrayLiteral {
    public private(set) var enabled: Set<Quirk>

    public init(_ quirks: some Sequence<Quirk>) { enabled = Set(quirks) }
    public init(arrayLiteral quirks: Quirk...) { enabled = Set(quirks) }

    public func contains(_ quirk: Quirk) -> Bool { !enabled.isEmpty && enabled.contains(quirk) }
    public var isEmpty: Bool { enabled.isEmpty }

    /// Groups of quirks seen together in one real responder.
    public static let presets: [String: [Quirk]] = [
        "umtp": [.proplistListsSelf, .lazyHandles, .genericFormat, .noThumbs, .noAllStorages, .stickySession],
        "debian-umtp": [
            .proplistListsSelf, .lazyHandles, .genericFormat, .noThumbs, .noAllStorages, .stickySession,
            .noDeviceInfoOutsideSession,
        ],
        "vcamera": [.strictTransactions, .okUnknownOps, .noProplist, .captureNewFolder],
    ]

    /// Parses a comma-separated list of quirk and preset names; throws naming the first unknown one.
    public init(parsing text: String) throws(QuirkError) {
        var set = Set<Quirk>()
        for part in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !part.isEmpty {
            if let quirk = Quirk(rawValue: part) {
                set.insert(quirk)
            } else if let preset = Self.presets[part] {
                set.formUnion(preset)
            } else {
                throw QuirkError(unknown: part)
            }
        }
        enabled = set
    }

    /// The names, sorted, as `--quirks` takes them.
    public var description: String { enabled.sorted().map(\.rawValue).joined(separator: ",") }

    /// Every quirk with its summary, then the presets: what `serve --quirks help` prints.
    public static var help: String {
        let width = Quirk.allCases.map(\.rawValue.count).max() ?? 0
        var lines = ["Quirks (serve --quirks a,b,...), each a behaviour of some real camera:"]
        for quirk in Quirk.allCases.sorted() {
            lines.append("  " + quirk.rawValue.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + quirk.summary)
        }
        lines.append("Presets:")
        for name in presets.keys.sorted() {
            lines.append("  " + name + ": " + presets[name]!.sorted().map(\.rawValue).joined(separator: ","))
        }
        return lines.joined(separator: "\n")
    }
}

/// A name given to `--quirks` that is neither a quirk nor a preset.
public struct QuirkError: Error, CustomStringConvertible, Equatable {
    public let unknown: String
    public var description: String { "unknown quirk '\(unknown)' (--quirks help lists them)" }
}
