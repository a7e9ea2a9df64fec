import Foundation
import PTP

/// How a quirky camera describes one object: the name it reports (duplicates, an invalid UTF-16 name),
/// the format (0x3000 for everything), and whether its ObjectInfo is cut short. Victims are chosen by an
/// object's position among the files of its folder, in the card's order, so tests know which they are.
struct ObjectPresentation {
    let quirks: Quirks
    let card: Card

    /// The private-use character that stands for an unpaired surrogate until the bytes are patched.
    static let surrogateStandIn: Character = "\u{E000}"

    /// The position of `object` among the files (not folders) of its folder.
    func fileIndex(_ object: CardObject) -> Int? {
        guard !object.isFolder else { return nil }
        let files = (card.children(of: object.parent) ?? []).filter { card.object($0)?.isFolder == false }
        return files.firstIndex(of: object.handle)
    }

    /// The name the camera reports for `object`, with the stand-in where an unpaired surrogate goes.
    func name(of object: CardObject) -> String {
        if quirks.contains(.namelessObjects) { return "" }
        guard quirks.contains(.invalidUTF16) || quirks.contains(.duplicateNames), let index = fileIndex(object) else {
            return object.name
        }
        if quirks.contains(.invalidUTF16) && index == 2 {
            var name = object.name
            let dot = name.lastIndex(of: ".") ?? name.endIndex
            name.insert(Self.surrogateStandIn, at: dot)
            return name
        }
        if quirks.contains(.duplicateNames) && index % 2 == 1 {
            let files = (card.children(of: object.parent) ?? []).filter { card.object($0)?.isFolder == false }
            let previous = card.object(files[index - 1])?.name ?? object.name
            return index % 4 == 3 ? previous.lowercased() : previous
        }
        return object.name
    }

    /// The StorageID the camera reports: with `storage-id-not-a-store`, one no store has (0x00010001 is
    /// reported as 0x10000001, as Canon EOS bodies do over PTP/IP).
    func storageID(of object: CardObject) -> UInt32 {
        quirks.contains(.storageIDNotAStore) ? 0x1000_0000 | object.storageID & 0xFFFF : object.storageID
    }

    /// The ParentObject the camera reports: with `parent-not-a-folder`, a folder's second file names the
    /// folder's first file.
    func parent(of object: CardObject) -> UInt32 {
        guard quirks.contains(.parentNotAFolder), fileIndex(object) == 1 else { return object.parent }
        let files = (card.children(of: object.parent) ?? []).filter { card.object($0)?.isFolder == false }
        return files[0]
    }

    func format(of object: CardObject) -> ObjectFormatCode {
        quirks.contains(.genericFormat) && !object.isFolder ? .undefined : object.format
    }

    /// True for the first JPEG among the files of its folder: the file `unreadable-jpeg` and `drop-at-jpeg`
    /// make unreadable.
    func isFirstJPEG(_ object: CardObject) -> Bool {
        guard !object.isFolder, object.format == .exifJPEG else { return false }
        let first = (card.children(of: object.parent) ?? []).first { card.object($0)?.format == .exifJPEG }
        return first == object.handle
    }

    /// True for the object whose ObjectInfo is truncated and whose name property is missing.
    func isTruncated(_ object: CardObject) -> Bool {
        quirks.contains(.truncatedObjectInfo) && fileIndex(object) == 1
    }

    /// An ObjectInfo as this camera sends it.
    func encode(_ info: ObjectInfo, of object: CardObject) -> [UInt8] {
        var info = info
        info.format = format(of: object)
        info.filename = name(of: object)
        info.storageID = storageID(of: object)
        info.parentObject = parent(of: object)
        if quirks.contains(.objectInfoSize64) { info.wideCompressedSize = object.size }
        if quirks.contains(.zeroDimensions) {
            info.imagePixWidth = 0
            info.imagePixHeight = 0
        }
        if quirks.contains(.noThumbInfo) {
            info.thumbFormat = ObjectFormatCode(0)
            info.thumbCompressedSize = 0
            info.thumbPixWidth = 0
            info.thumbPixHeight = 0
        }
        var bytes = Self.withUnpairedSurrogate(info.encoded(), name: info.filename)
        if isTruncated(object) {
            // The fixed part is 52 bytes; the name's count byte and two of its characters follow.
            bytes = Array(bytes.prefix(52 + 1 + 4))
        }
        return bytes
    }

    /// Replaces the stand-in (U+E000) inside every encoding of the PTP string `name` in `bytes` with an
    /// unpaired high surrogate (U+D800). The whole encoded string is matched, count byte to NUL, so no
    /// other field can be touched.
    static func withUnpairedSurrogate(_ bytes: [UInt8], name: String) -> [UInt8] {
        guard name.contains(surrogateStandIn) else { return bytes }
        var w = PTPWriter()
        w.string(name)
        let needle = w.bytes
        var out = bytes
        var i = 0
        while i + needle.count <= out.count {
            if out[i] == needle[0] && Array(out[i..<i + needle.count]) == needle {
                for j in stride(from: 1, to: needle.count - 1, by: 2) where needle[j] == 0x00 && needle[j + 1] == 0xE0 {
                    out[i + j + 1] = 0xD8
                }
                i += needle.count
            } else {
                i += 1
            }
        }
        return out
    }
}
