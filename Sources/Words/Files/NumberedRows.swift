import CameraFacts
import Foundation
import TextKit

/// `ls -n`: the listing's rows with their numbers in front, which later file arguments take (`#3`, `#1-5`).
/// Numbers go on across the blocks of one listing; they are right-aligned to the widest.
extension FileListing {
    /// Names in columns (or one per line), each after its number: `1 DJI_0001.JPG  2 DJI_0002.JPG`.
    public func numberedShort(
        _ entries: [RemoteEntry], from first: Int, width: Int, columns: Int?, onePerLine: Bool = false
    ) -> [String] {
        let names = zip(Self.numbers(entries.count, from: first, width: width), Self.names(entries, quoted: columns != nil))
            .map { "\($0) \($1)" }
        guard let columns, !onePerLine else { return names }
        return ColumnList.lines(names, width: columns)
    }

    /// The long listing, each row after its number, fitted (as `long` fits its rows) to `columns` less the
    /// number's room.
    public func numberedLong(
        _ entries: [RemoteEntry], from first: Int, width: Int, quoted: Bool = false, columns: Int? = nil
    ) -> [String] {
        let rows = long(entries, quoted: quoted, width: columns.map { max(1, $0 - width - 2) })
        return zip(Self.numbers(entries.count, from: first, width: width), rows).map { "\($0)  \($1)" }
    }

    /// The JSON array with each object's `number`.
    public func numberedJSON(_ entries: [RemoteEntry], from first: Int) -> String {
        Self.encode(entries.enumerated().map { index, entry in
            Numbered(number: first + index, entry: Self.jsonEntry(entry, dates: dates, time: entry.file.map(times.shown)))
        })
    }

    /// `count` numbers from `first`, right-aligned in `width` digits.
    static func numbers(_ count: Int, from first: Int, width: Int) -> [String] {
        (first..<first + count).map { number in
            let digits = String(number)
            return String(repeating: " ", count: max(0, width - digits.count)) + digits
        }
    }

    /// The digits of the highest of `count` numbers: the width every block of one listing aligns to.
    public static func numberWidth(_ count: Int) -> Int { String(max(count, 1)).count }

    /// A listing entry and its number, as one JSON object.
    private struct Numbered: Encodable {
        let number: Int
        let entry: JSONEntry

        enum Keys: String, CodingKey { case number }

        func encode(to encoder: Encoder) throws {
            try entry.encode(to: encoder)
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(number, forKey: .number)
        }
    }
}
