import Foundation
import PTP

/// One object of a property list as this camera describes it, its quirks resolved once: what both the
/// sizing pass and the encoding pass of a `PropListSource` read.
struct PropListRow {
    let object: CardObject
    /// The name reported (a quirk may change it); the stand-in marks where an unpaired surrogate goes.
    let name: String
    let format: ObjectFormatCode
    /// The StorageID and ParentObject reported (quirks may change them).
    let storageID: UInt32
    let parent: UInt32
    /// The object whose name properties are missing (`truncated-objectinfo`).
    let truncated: Bool
    let facts: VideoFacts?
}

/// Receives a property list's elements in order: counted, written, or collected.
protocol PropListOutput {
    mutating func element(_ handle: UInt32, _ code: ObjectPropertyCode, _ value: PTPValue)
}

/// The elements a camera lists for each row, for a given choice of properties. Each property's kind is
/// found once per list, not once per object (a card of 100,000 objects makes 1.5 million elements).
struct PropListEncoding {
    private enum Kind { case name, format, date, video, storage, parent, other }
    private let plan: [(code: ObjectPropertyCode, kind: Kind)]
    private let zeroDimensions: Bool
    private let card: Card

    init(properties: [ObjectPropertyCode], quirks: Quirks, card: Card) {
        plan = properties.map { code in
            switch code {
            case .objectFileName, .name: (code, .name)
            case .objectFormat: (code, .format)
            case .dateCreated, .dateModified: (code, .date)
            case .storageID: (code, .storage)
            case .parentObject: (code, .parent)
            case _ where ObjectProperties.videoOnly.contains(code): (code, .video)
            default: (code, .other)
            }
        }
        zeroDimensions = quirks.contains(.zeroDimensions)
        self.card = card
    }

    /// Whether any property asked for needs the movie's facts (read from the file, then cached).
    var wantsVideo: Bool { plan.contains { $0.kind == .video } }

    func encode<Output: PropListOutput>(_ row: PropListRow, dates: inout ObjectProperties.DateStrings, into out: inout Output) {
        let h = row.object.handle
        for (code, kind) in plan {
            switch kind {
            case .name:
                if !row.truncated { out.element(h, code, .string(row.name)) }
            case .format:
                out.element(h, code, .uint16(row.format.rawValue))
            case .date:
                out.element(h, code, .string(dates.format(row.object.modified)))
            case .storage:
                out.element(h, code, .uint32(row.storageID))
            case .parent:
                out.element(h, code, .uint32(row.parent))
            case .video:
                guard let facts = row.facts, let value = ObjectProperties.value(code, of: facts) else { continue }
                out.element(h, code, zeroDimensions && (code == .width || code == .height) ? .uint32(0) : value)
            case .other:
                if let value = ObjectProperties.value(code, of: row.object, card: card) { out.element(h, code, value) }
            }
        }
    }
}

/// A GetObjectPropList data phase produced as it is sent: a first pass over the rows counts the elements
/// and their bytes (the length PTP/IP announces before any data), then each `read` encodes only the rows
/// its bytes need. The first byte leaves after the count, not after 24 MB were built (100,000 objects),
/// and a paced link (`serve --link`) overlaps the encoding with its sending.
final class PropListSource: DataSource {
    let rows: [PropListRow]
    let encoding: PropListEncoding
    /// Names whose stand-in becomes an unpaired high surrogate in the bytes (`invalid-utf16`).
    let surrogateNames: Set<String>
    let length: UInt64
    let count: UInt32

    private var dates = ObjectProperties.DateStrings()
    private var nextRow = 0
    private var pending: [UInt8]
    private var pendingOffset = 0
    /// Output encoded ahead per refill: big enough that a refill costs little, small enough to stay cheap.
    static let refillSize = 256 << 10

    init(rows: [PropListRow], encoding: PropListEncoding, surrogateNames: Set<String>) {
        self.rows = rows
        self.encoding = encoding
        self.surrogateNames = surrogateNames
        var size = PropListSize()
        var dates = ObjectProperties.DateStrings()
        for row in rows { encoding.encode(row, dates: &dates, into: &size) }
        count = size.count
        length = 4 + size.bytes
        var w = PTPWriter(capacity: 4)
        w.uint32(count)
        pending = w.bytes
        self.dates = dates
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        var filled = 0
        while filled < buffer.count {
            if pendingOffset == pending.count && !refill() { break }
            let n = min(buffer.count - filled, pending.count - pendingOffset)
            pending.withUnsafeBytes { source in
                (buffer.baseAddress! + filled).copyMemory(from: source.baseAddress! + pendingOffset, byteCount: n)
            }
            pendingOffset += n
            filled += n
        }
        return filled
    }

    /// Encodes the next rows, about `refillSize` bytes of them; false once every row was sent.
    private func refill() -> Bool {
        guard nextRow < rows.count else { return false }
        var out = PropListBytes(capacity: Self.refillSize + 4096, surrogateNames: surrogateNames)
        while nextRow < rows.count && out.writer.bytes.count < Self.refillSize {
            encoding.encode(rows[nextRow], dates: &dates, into: &out)
            nextRow += 1
        }
        pending = out.writer.bytes
        pendingOffset = 0
        return true
    }
}

/// Counts elements and their encoded bytes without encoding them.
struct PropListSize: PropListOutput {
    var count: UInt32 = 0
    var bytes: UInt64 = 0

    mutating func element(_ handle: UInt32, _ code: ObjectPropertyCode, _ value: PTPValue) {
        count += 1
        bytes += 8 + UInt64(Self.encodedSize(of: value))
    }

    /// The bytes `PTPValue.encode` writes for `value` (strings as `PTPWriter.string` cuts them).
    static func encodedSize(of value: PTPValue) -> Int {
        switch value {
        case .int8, .uint8: 1
        case .int16, .uint16: 2
        case .int32, .uint32: 4
        case .int64, .uint64: 8
        case .int128, .uint128: 16
        case .string(let s): encodedSize(of: s)
        case .array(_, let values): values.reduce(4) { $0 + encodedSize(of: $1) }
        }
    }

    static func encodedSize(of string: String) -> Int {
        let utf16 = string.utf16
        // Counted without a walk for ASCII (names, dates); empty is a lone zero count byte.
        var units = utf16.count
        if units == 0 { return 1 }
        if units > 254 {
            // PTPWriter keeps 254 units, and not the first half of a surrogate pair cut there.
            units = UTF16.isLeadSurrogate(utf16[utf16.index(utf16.startIndex, offsetBy: 253)]) ? 253 : 254
        }
        return 1 + 2 * (units + 1)
    }
}

/// Writes elements as PTP encodes them, a name with the stand-in patched to an unpaired surrogate.
struct PropListBytes: PropListOutput {
    var writer: PTPWriter
    let surrogateNames: Set<String>

    init(capacity: Int, surrogateNames: Set<String>) {
        writer = PTPWriter(capacity: capacity)
        self.surrogateNames = surrogateNames
    }

    mutating func element(_ handle: UInt32, _ code: ObjectPropertyCode, _ value: PTPValue) {
        writer.uint32(handle)
        writer.uint16(code.rawValue)
        writer.uint16(value.dataType.rawValue)
        if !surrogateNames.isEmpty, case .string(let name) = value, surrogateNames.contains(name) {
            var w = PTPWriter()
            w.string(name)
            writer.raw(ObjectPresentation.withUnpairedSurrogate(w.bytes, name: name))
        } else {
            value.encode(into: &writer)
        }
    }
}
