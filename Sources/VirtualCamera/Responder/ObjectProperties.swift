import Foundation
import PTP

/// The MTP object properties the virtual camera reports (GetObjectPropList and friends).
enum ObjectProperties {
    static let supported: [ObjectPropertyCode] = [
        .storageID, .objectFormat, .protectionStatus, .objectSize, .objectFileName, .dateCreated,
        .dateModified, .parentObject, .persistentUniqueObjectIdentifier, .name, .width, .height, .duration,
        .framesPerThousandSeconds, .videoFourCCCodec,
    ]

    /// Properties that only videos have; other objects leave them out of property lists.
    static let videoOnly: Set<ObjectPropertyCode> = [.width, .height, .duration, .framesPerThousandSeconds, .videoFourCCCodec]

    static func value(_ code: ObjectPropertyCode, of object: CardObject, card: Card, videos: VideoFactsCache) -> PTPValue? {
        if videoOnly.contains(code) {
            guard let facts = videos.facts(for: object) else { return nil }
            return value(code, of: facts)
        }
        return value(code, of: object, card: card)
    }

    /// A video-only property from what the movie says.
    static func value(_ code: ObjectPropertyCode, of facts: VideoFacts) -> PTPValue? {
        switch code {
        case .width: .uint32(facts.width)
        case .height: .uint32(facts.height)
        case .duration: facts.durationMilliseconds.map { .uint32($0) }
        case .framesPerThousandSeconds: facts.framesPerThousandSeconds.map { .uint32($0) }
        default: .uint32(facts.fourCC)
        }
    }

    /// PTP date strings, each distinct time formatted once (one property list formats the same few
    /// times over and over: files copied together share their modification time).
    struct DateStrings {
        private var cache: [Date: String] = [:]
        /// The last time asked for: objects in a row share it, and a comparison costs less than a hash.
        private var last: (date: Date, text: String)?

        mutating func format(_ date: Date) -> String {
            if let last, last.date == date { return last.text }
            let text: String
            if let known = cache[date] {
                text = known
            } else {
                text = PTPDateTime.format(date)
                if cache.count < 4096 { cache[date] = text }
            }
            last = (date, text)
            return text
        }
    }

    static func value(_ code: ObjectPropertyCode, of object: CardObject, card: Card) -> PTPValue? {
        switch code {
        case .storageID: .uint32(object.storageID)
        case .objectFormat: .uint16(object.format.rawValue)
        case .protectionStatus: .uint16(card.readOnly ? 1 : 0)
        case .objectSize: .uint64(object.size)
        case .objectFileName, .name: .string(object.name)
        case .dateCreated, .dateModified: .string(PTPDateTime.format(object.modified))
        case .parentObject: .uint32(object.parent)
        case .persistentUniqueObjectIdentifier: .uint128(low: UInt64(object.handle), high: 0x6D73_6800)
        default: nil
        }
    }

    static func dataType(_ code: ObjectPropertyCode) -> DataTypeCode? {
        switch code {
        case .storageID, .parentObject: .uint32
        case .objectFormat, .protectionStatus: .uint16
        case .objectSize: .uint64
        case .objectFileName, .name, .dateCreated, .dateModified: .string
        case .persistentUniqueObjectIdentifier: .uint128
        case .width, .height, .duration, .framesPerThousandSeconds, .videoFourCCCodec: .uint32
        default: nil
        }
    }

    /// ObjectPropDesc dataset: code, type, get/set, default value, group code, form flag (none).
    static func describe(_ code: ObjectPropertyCode) -> [UInt8]? {
        guard supported.contains(code), let type = dataType(code) else { return nil }
        var w = PTPWriter()
        w.uint16(code.rawValue)
        w.uint16(type.rawValue)
        w.uint8(0)
        switch type {
        case .string: PTPValue.string("").encode(into: &w)
        case .uint16: w.uint16(0)
        case .uint32: w.uint32(0)
        case .uint64: w.uint64(0)
        case .uint128: w.uint64(0); w.uint64(0)
        default: w.uint32(0)
        }
        w.uint32(0)
        w.uint8(0)
        return w.bytes
    }
}
