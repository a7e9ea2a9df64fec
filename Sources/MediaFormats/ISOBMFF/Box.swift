/// One box inside bytes already read (the movie box and its descendants): its type and a cursor over its
/// payload, the bytes after the header.
struct Box {
    let type: FourCC
    /// The payload, bounded to this box.
    let payload: ByteCursor
    /// Where the box (its header) starts in the file.
    let fileOffset: UInt64

    /// Reads a FullBox's version and flags from the start of the payload and returns a cursor after them.
    func fullBoxPayload() throws -> (version: UInt8, flags: UInt32, cursor: ByteCursor) {
        var cursor = payload
        let version = try cursor.readUInt8()
        let flags = try cursor.readUInt24()
        return (version, flags, cursor)
    }
}

/// Counts the boxes parsed inside one movie box and how deep they nest, so a hostile file cannot make the
/// parser loop or recurse without end.
struct BoxBudget {
    let maxBoxes: Int
    let maxDepth: Int
    private(set) var boxesSeen = 0

    init(maxBoxes: Int, maxDepth: Int) {
        self.maxBoxes = maxBoxes
        self.maxDepth = maxDepth
    }

    mutating func countBox(at offset: UInt64) throws {
        boxesSeen += 1
        guard boxesSeen <= maxBoxes else {
            throw MediaFormatError(.tooMany(.boxesInMovie, count: nil, limit: maxBoxes), offset: offset)
        }
    }
}

extension Box {
    /// The child boxes of this container, in file order. Each child must fit inside this box; a size of 0
    /// ("to the end of the file") is allowed only at the top level, so it is an error here.
    func children(depth: Int, budget: inout BoxBudget) throws -> [Box] {
        guard depth <= budget.maxDepth else {
            throw MediaFormatError(.nestedTooDeep(box: "\(type)", limit: budget.maxDepth), offset: fileOffset)
        }
        var cursor = payload
        var result: [Box] = []
        while !cursor.isAtEnd {
            let start = cursor.currentFileOffset
            if cursor.remaining < 8 {
                // QuickTime ends some lists with a 32-bit zero; anything else is a stray fragment.
                let rest = try cursor.readBytes(cursor.remaining)
                guard rest.allSatisfy({ $0 == 0 }) else {
                    throw MediaFormatError(.strayBytes(box: "\(type)", count: rest.count), offset: start)
                }
                break
            }
            try budget.countBox(at: start)
            let size32 = try cursor.readUInt32()
            let childType = FourCC(rawValue: try cursor.readUInt32())
            var headerSize: UInt64 = 8
            let size: UInt64
            switch size32 {
            case 0:
                throw MediaFormatError(
                    .zeroSizeInside(box: "\(childType)", parent: "\(type)"),
                    offset: start)
            case 1:
                size = try cursor.readUInt64()
                headerSize = 16
            default:
                size = UInt64(size32)
            }
            guard size >= headerSize else {
                throw MediaFormatError(.smallerThanHeader(box: "\(childType)", size: size), offset: start)
            }
            let payloadSize = size - headerSize
            guard payloadSize <= UInt64(cursor.remaining) else {
                throw MediaFormatError(
                    .childTooLarge(
                        box: "\(childType)", size: size, parent: "\(type)", room: UInt64(cursor.remaining) + headerSize),
                    offset: start)
            }
            let childPayload = try cursor.subCursor(Int(payloadSize), what: "the '\(childType)' box")
            result.append(Box(type: childType, payload: childPayload, fileOffset: start))
        }
        return result
    }
}

extension [Box] {
    /// The first box of `type`, if any.
    func first(_ type: FourCC) -> Box? {
        first { $0.type == type }
    }

    /// The first box of `type`, or a `.malformed` error saying which container lacks it.
    func require(_ type: FourCC, in container: String) throws -> Box {
        guard let box = first(type) else {
            throw MediaFormatError(.missingBox(types: ["\(type)"], in: container))
        }
        return box
    }
}
