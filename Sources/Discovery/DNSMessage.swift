/// The part of DNS (RFC 1035) that multicast DNS service discovery uses (RFC 6762, RFC 6763): a message of
/// questions and records, with the record types that describe a service (PTR, SRV, TXT, A). Decoding is
/// total and bounded: a name of more than 255 bytes, a compression pointer loop or a length that runs past
/// the message is `DNSMessage.Malformed`, never a crash.
struct DNSMessage: Equatable, Sendable {
    var id: UInt16 = 0
    var flags: UInt16 = 0
    var questions: [Question] = []
    var answers: [Record] = []
    var additionals: [Record] = []

    static let responseFlags: UInt16 = 0x8400  // QR (a response) and AA (authoritative), as RFC 6762 §18 asks

    var isResponse: Bool { flags & 0x8000 != 0 }

    struct Question: Equatable, Sendable {
        var name: String
        var type: RecordType
        /// The top bit of the class: the asker would take a unicast answer (RFC 6762 §5.4).
        var unicastResponse = false
    }

    struct Record: Equatable, Sendable {
        var name: String
        var ttl: UInt32
        var data: RecordData
        /// The top bit of the class in an answer: this record replaces what a cache holds (RFC 6762 §10.2).
        var cacheFlush = false
    }

    enum RecordData: Equatable, Sendable {
        case a(String)
        case ptr(String)
        case srv(priority: UInt16, weight: UInt16, port: UInt16, target: String)
        case txt([String])
        case other(type: UInt16, bytes: [UInt8])

        var type: RecordType {
            switch self {
            case .a: .a
            case .ptr: .ptr
            case .srv: .srv
            case .txt: .txt
            case .other(let type, _): RecordType(rawValue: type)
            }
        }
    }

    struct RecordType: RawRepresentable, Hashable, Sendable {
        var rawValue: UInt16
        static let a = RecordType(rawValue: 1)
        static let ptr = RecordType(rawValue: 12)
        static let txt = RecordType(rawValue: 16)
        static let srv = RecordType(rawValue: 33)
        static let any = RecordType(rawValue: 255)
    }

    struct Malformed: Error, Equatable, Sendable {
        var offset: Int
    }

    static let classIN: UInt16 = 1

    // MARK: Encoding

    func encoded() -> [UInt8] {
        var out: [UInt8] = []
        for value in [id, flags, UInt16(questions.count), UInt16(answers.count), 0, UInt16(additionals.count)] {
            out.append16(value)
        }
        for question in questions {
            out.appendName(question.name)
            out.append16(question.type.rawValue)
            out.append16(Self.classIN | (question.unicastResponse ? 0x8000 : 0))
        }
        for record in answers + additionals {
            out.appendName(record.name)
            out.append16(record.data.type.rawValue)
            out.append16(Self.classIN | (record.cacheFlush ? 0x8000 : 0))
            out.append32(record.ttl)
            var data: [UInt8] = []
            switch record.data {
            case .a(let address):
                data = address.split(separator: ".").compactMap { UInt8($0) }
                if data.count != 4 { data = [0, 0, 0, 0] }
            case .ptr(let name):
                data.appendName(name)
            case .srv(let priority, let weight, let port, let target):
                data.append16(priority)
                data.append16(weight)
                data.append16(port)
                data.appendName(target)
            case .txt(let strings):
                // At least one string, empty if need be (RFC 6763 §6.1).
                for string in strings.isEmpty ? [""] : strings {
                    let bytes = Array(string.utf8.prefix(255))
                    data.append(UInt8(bytes.count))
                    data += bytes
                }
            case .other(_, let bytes):
                data = bytes
            }
            out.append16(UInt16(min(data.count, Int(UInt16.max))))
            out += data
        }
        return out
    }

    // MARK: Decoding

    init(id: UInt16 = 0, flags: UInt16 = 0, questions: [Question] = [], answers: [Record] = [], additionals: [Record] = []) {
        self.id = id
        self.flags = flags
        self.questions = questions
        self.answers = answers
        self.additionals = additionals
    }

    init(decoding bytes: [UInt8]) throws(Malformed) {
        var reader = Reader(bytes: bytes)
        id = try reader.u16()
        flags = try reader.u16()
        let counts = [try reader.u16(), try reader.u16(), try reader.u16(), try reader.u16()]
        for _ in 0..<counts[0] {
            let name = try reader.name()
            let type = try reader.u16()
            let klass = try reader.u16()
            questions.append(Question(name: name, type: RecordType(rawValue: type), unicastResponse: klass & 0x8000 != 0))
        }
        // Authority records (counts[2]) are read and dropped: discovery has no use for them.
        for section in 1...3 {
            for _ in 0..<counts[section] {
                let record = try reader.record()
                if section == 1 { answers.append(record) } else if section == 3 { additionals.append(record) }
            }
        }
    }

    private struct Reader {
        let bytes: [UInt8]
        var offset = 0

        mutating func u8() throws(Malformed) -> UInt8 {
            guard offset < bytes.count else { throw Malformed(offset: offset) }
            defer { offset += 1 }
            return bytes[offset]
        }

        mutating func u16() throws(Malformed) -> UInt16 { UInt16(try u8()) << 8 | UInt16(try u8()) }
        mutating func u32() throws(Malformed) -> UInt32 { UInt32(try u16()) << 16 | UInt32(try u16()) }

        mutating func take(_ count: Int) throws(Malformed) -> [UInt8] {
            guard count >= 0, count <= bytes.count - offset else { throw Malformed(offset: offset) }
            defer { offset += count }
            return Array(bytes[offset..<offset + count])
        }

        /// A name at the cursor, following compression pointers (each must point backwards, at most 32).
        mutating func name() throws(Malformed) -> String {
            var labels: [String] = []
            var length = 0
            var position = offset
            var jumped = false
            var jumps = 0
            while true {
                guard position < bytes.count else { throw Malformed(offset: position) }
                let size = Int(bytes[position])
                if size == 0 {
                    if !jumped { offset = position + 1 }
                    break
                }
                if size & 0xC0 == 0xC0 {
                    guard position + 1 < bytes.count else { throw Malformed(offset: position) }
                    let target = (size & 0x3F) << 8 | Int(bytes[position + 1])
                    jumps += 1
                    guard target < position, jumps <= 32 else { throw Malformed(offset: position) }
                    if !jumped { offset = position + 2 }
                    jumped = true
                    position = target
                    continue
                }
                guard size <= 63, position + 1 + size <= bytes.count else { throw Malformed(offset: position) }
                length += size + 1
                guard length <= 255 else { throw Malformed(offset: position) }
                labels.append(String(decoding: bytes[(position + 1)..<(position + 1 + size)], as: UTF8.self))
                position += 1 + size
            }
            return labels.joined(separator: ".")
        }

        mutating func record() throws(Malformed) -> Record {
            let owner = try name()
            let type = RecordType(rawValue: try u16())
            let klass = try u16()
            let ttl = try u32()
            let length = Int(try u16())
            guard length <= bytes.count - offset else { throw Malformed(offset: offset) }
            let end = offset + length
            let data: RecordData
            switch type {
            case .a where length == 4:
                data = .a(try take(4).map(String.init).joined(separator: "."))
            case .ptr:
                data = .ptr(try name())
            case .srv:
                let priority = try u16()
                let weight = try u16()
                let port = try u16()
                data = .srv(priority: priority, weight: weight, port: port, target: try name())
            case .txt:
                var strings: [String] = []
                while offset < end {
                    let size = Int(try u8())
                    guard offset + size <= end else { throw Malformed(offset: offset) }
                    strings.append(String(decoding: try take(size), as: UTF8.self))
                }
                data = .txt(strings)
            default:
                data = .other(type: type.rawValue, bytes: try take(length))
            }
            guard offset <= end else { throw Malformed(offset: offset) }
            offset = end
            return Record(name: owner, ttl: ttl, data: data, cacheFlush: klass & 0x8000 != 0)
        }
    }
}

extension [UInt8] {
    fileprivate mutating func append16(_ value: UInt16) {
        append(UInt8(value >> 8))
        append(UInt8(value & 0xFF))
    }

    fileprivate mutating func append32(_ value: UInt32) {
        append16(UInt16(value >> 16))
        append16(UInt16(value & 0xFFFF))
    }

    /// A name as labels, uncompressed; a label is cut at 63 bytes, dots end labels.
    fileprivate mutating func appendName(_ name: String) {
        for label in name.split(separator: ".", omittingEmptySubsequences: true) {
            let bytes = Array(label.utf8.prefix(63))
            append(UInt8(bytes.count))
            self += bytes
        }
        append(0)
    }
}
