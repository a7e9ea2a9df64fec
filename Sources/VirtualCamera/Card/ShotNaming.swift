/// How a camera names the pictures it takes, as the bodies do: its prefix and a four-digit counter
/// (`IMG_0007.JPG`, `DSC_0007.JPG`, `DSCF0007.JPG`). The counter goes on from the highest number among
/// the card's files of the camera's own patterns (its movies and other colour spaces share the counter:
/// Canon's `MVI_0006.MOV`); another camera's files (`BIG_0005.BIN`) do not count. The shot goes in the last
/// DCIM folder; past 9999, in a new folder numbered one past it, from 0001.
public struct ShotNaming: Sendable, Equatable {
    /// What a picture's name begins with: `IMG_`.
    public var prefix: String
    /// The other prefixes of the same counter: `MVI_` and `_MG_` beside Canon's `IMG_`.
    public var sharedWith: [String]
    /// The folder name after DCIM's number (`CANON` in `100CANON`): a card without DCIM folders gets
    /// `100` + it, a counter past 9999 the next number + it.
    public var folderSuffix: String

    public init(prefix: String, sharedWith: [String] = [], folderSuffix: String) {
        self.prefix = prefix
        self.sharedWith = sharedWith
        self.folderSuffix = folderSuffix
    }

    /// The generic camera's: `IMG_0001.JPG` in `100MEDIA`.
    public static let generic = ShotNaming(prefix: "IMG_", folderSuffix: "MEDIA")

    /// The picture numbered `number`: `IMG_0007.JPG`.
    public func name(_ number: Int) -> String {
        let digits = String(number)
        return prefix + String(repeating: "0", count: max(0, 4 - digits.count)) + digits + ".JPG"
    }

    /// The counter of a file named in one of this camera's patterns (a prefix, four digits, an extension:
    /// `IMG_0007.CR2`), in any case; nil for any other name.
    public func number(of name: String) -> Int? {
        let upper = name.uppercased()
        guard let own = ([prefix] + sharedWith).first(where: { upper.hasPrefix($0.uppercased()) }) else { return nil }
        let rest = upper.dropFirst(own.count)
        let digits = rest.prefix(4)
        guard digits.count == 4, digits.allSatisfy({ ("0"..."9").contains($0) }), rest.dropFirst(4).first == "." else {
            return nil
        }
        return Int(digits)
    }
}
