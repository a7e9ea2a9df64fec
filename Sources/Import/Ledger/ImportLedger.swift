import POSIX
import Foundation

/// One camera's import ledger: which objects were imported, where to and when. "New" means "not in the
/// ledger", so it holds when the local files are moved or renamed.
///
/// The file is replaced atomically (temporary file, fsync, rename) and every change is made under an
/// exclusive `flock` on `FILE.lock`, re-reading the file first, so that concurrent imports never lose
/// each other's entries. A file that cannot be read as a ledger is an error naming it, never an empty
/// ledger (which would import the whole card again).
public final class ImportLedger: Sendable {
    public let path: String
    public let cameraKey: String
    /// The ledger as last read or written, and where each object's entry is in it.
    private struct State {
        var document: LedgerDocument
        var known: [ObjectIdentity: Int]
        /// The file as this process last read or wrote it: while it is still that, it holds `document`.
        var version: LocalDisk.Version?

        init(_ document: LedgerDocument, version: LocalDisk.Version? = nil) {
            self.document = document
            self.version = version
            known = [:]
            for (i, e) in document.entries.enumerated() { known[e.identity] = i }
        }
    }
    /// Each entry's JSON as last written, written again as it is while the entry is unchanged: an import
    /// records a group of files at a time, and encoding every entry of the ledger for each group made the
    /// cost of a group grow with the ledger.
    private let written = Locked<[ObjectIdentity: (entry: LedgerEntry, json: [UInt8])]>([:])
    private let state: Locked<State>
    /// Ledgers past this size are refused rather than read into memory.
    static let maximumBytes = 256 << 20

    /// Opens (reading, not creating) the ledger for `cameraKey` in `folder`.
    public convenience init(cameraKey: String, folder: String) throws {
        try self.init(path: folder + "/" + LedgerLocation.fileName(for: cameraKey), cameraKey: cameraKey)
    }

    public init(path: String, cameraKey: String) throws {
        self.path = path
        self.cameraKey = cameraKey
        // The version the file had before and after it was read: when they agree, the first `record` need
        // not read it again (a ledger of 50,000 entries took 0.9 s to decode, twice per import).
        let before = LocalDisk.version(of: path)
        let document = try Self.load(path, cameraKey: cameraKey) ?? LedgerDocument(camera: cameraKey)
        let after = LocalDisk.version(of: path)
        state = Locked(State(document, version: before != nil && before == after ? after : nil))
    }

    /// Opens a ledger file whatever camera it belongs to (`verify` reads every one). Anything else than a
    /// ledger throws, naming it.
    public static func open(path: String) throws -> ImportLedger {
        guard let bytes = try ImportError.onDisk({ try LocalDisk.readWhole(path, limit: maximumBytes) }) else {
            throw ImportError.local(SystemError(.open, path: path, errno: ENOENT))
        }
        struct Owner: Decodable { var camera: String }
        guard let owner = try? JSONDecoder().decode(Owner.self, from: Data(bytes)) else {
            throw ImportError.corruptLedger(path: path, detail: "not a mediashell import ledger")
        }
        return try ImportLedger(path: path, cameraKey: owner.camera)
    }

    /// Every entry, oldest first.
    public var entries: [LedgerEntry] { state.withLock { $0.document.entries } }

    /// True when nothing was imported from this camera yet.
    public var isEmpty: Bool { state.withLock { $0.document.entries.isEmpty } }

    /// The last sequence number handed out (`%n` in patterns continues from it).
    public var sequence: Int { state.withLock { $0.document.sequence } }

    /// This camera's time shift (`set time-shift`), in seconds; nil when none was set.
    public var shift: Double? { state.withLock { $0.document.shift } }

    /// Sets (or, with nil or 0, clears) this camera's time shift, written durably as `record` writes.
    public func saveShift(_ seconds: Double?) throws {
        try update { $0.shift = seconds == 0 ? nil : seconds }
    }

    /// The entry for an object, if it was imported.
    public func entry(for identity: ObjectIdentity) -> LedgerEntry? {
        state.withLock { state in state.known[identity].map { state.document.entries[$0] } }
    }

    public func contains(_ identity: ObjectIdentity) -> Bool { state.withLock { $0.known[identity] != nil } }

    /// Adds entries (replacing any for the same objects) and raises the sequence to at least `sequence`,
    /// merging with whatever another process recorded meanwhile, and writes the file durably.
    public func record(_ newEntries: [LedgerEntry], sequence: Int? = nil) throws {
        guard !newEntries.isEmpty || sequence != nil else { return }
        try update { latest in
            Self.merge(newEntries, sequence: sequence, into: &latest)
        }
    }

    static func merge(_ newEntries: [LedgerEntry], sequence: Int?, into latest: inout LedgerDocument) {
        var index: [ObjectIdentity: Int] = [:]
        for (i, e) in latest.entries.enumerated() { index[e.identity] = i }
        for e in newEntries {
            if let i = index[e.identity] {
                latest.entries[i] = e
            } else {
                index[e.identity] = latest.entries.count
                latest.entries.append(e)
            }
        }
        if let sequence { latest.sequence = max(latest.sequence, sequence) }
    }

    /// Adds `repair` to the repairs of the entry of `identity` (`verify --repair`), under the ledger's lock;
    /// nothing when the ledger no longer has that entry.
    public func recordRepair(_ repair: LedgerRepair, of identity: ObjectIdentity) throws {
        try update { document in
            guard let index = document.entries.firstIndex(where: { $0.identity == identity }) else { return }
            document.entries[index].repairs = (document.entries[index].repairs ?? []) + [repair]
        }
    }

    /// Changes the ledger under its lock: the file re-read, `change` applied, the file replaced durably.
    private func update(_ change: (inout LedgerDocument) -> Void) throws {
        try ImportError.onDisk { try LocalDisk.makeDirectory(LocalDisk.parentFolder(of: path)) }
        guard let fd = try ImportError.onDisk({ try LocalDisk.lock(path + ".lock", wait: true) }) else { return }
        defer { LocalDisk.unlock(fd) }
        // The file is read again only when another process changed it since this one last did.
        let before = LocalDisk.version(of: path)
        let held = state.withLock { state in before != nil && state.version == before ? state.document : nil }
        var latest = try held ?? Self.load(path, cameraKey: cameraKey) ?? LedgerDocument(camera: cameraKey)
        change(&latest)
        let bytes: [UInt8]
        do {
            bytes = try encode(latest)
        } catch {
            throw ImportError.local(SystemError(.encode, path: path, errno: EINVAL, detail: "\(error)"))
        }
        try ImportError.onDisk { try LocalDisk.writeAtomically(bytes, to: path) }
        let after = LocalDisk.version(of: path)
        state.withLock { $0 = State(latest, version: after) }
    }

    /// The document as JSON (keys sorted, one line): the entries each encoded once and kept (`written`),
    /// spliced into the rest of the document encoded without them. The same bytes as encoding it whole.
    func encode(_ document: LedgerDocument) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var bare = document
        bare.entries = []
        let frame = Array(try encoder.encode(bare))
        // Keys are sorted and a string's quotes are escaped: the first `"entries":[]` is the field's.
        let slot = Array(#""entries":[]"#.utf8)
        guard let at = frame.firstRange(of: slot)?.lowerBound else { return Array(try encoder.encode(document)) + [0x0A] }
        var kept = written.withLock { $0 }
        var bytes = Array(frame[..<at])
        bytes.reserveCapacity(frame.count + document.entries.count * 400)
        bytes += Array(#""entries":["#.utf8)
        for (index, entry) in document.entries.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            if let cached = kept[entry.identity], cached.entry == entry {
                bytes += cached.json
            } else {
                let json = Array(try encoder.encode(entry))
                kept[entry.identity] = (entry, json)
                bytes += json
            }
        }
        bytes += Array("]".utf8)
        bytes += frame[(at + slot.count)...]
        bytes.append(0x0A)
        written.withLock { $0 = kept }
        return bytes
    }

    /// Takes the ledger's run lock (`FILE.run`) for the length of one import, so that two imports from
    /// the same camera do not fetch the same files at once. Throws `ledgerBusy` when another holds it.
    public func beginRun() throws -> LedgerRun {
        try ImportError.onDisk { try LocalDisk.makeDirectory(LocalDisk.parentFolder(of: path)) }
        guard let fd = try ImportError.onDisk({ try LocalDisk.lock(path + ".run", wait: false) }) else { throw ImportError.ledgerBusy(path: path + ".run") }
        return LedgerRun(fd: fd)
    }


    /// Reads a ledger file; nil when there is none yet. Anything else than a ledger of this camera throws.
    static func load(_ path: String, cameraKey: String) throws -> LedgerDocument? {
        guard let bytes = try ImportError.onDisk({ try LocalDisk.readWhole(path, limit: maximumBytes) }) else { return nil }
        let document: LedgerDocument
        do {
            document = try JSONDecoder().decode(LedgerDocument.self, from: Data(bytes))
        } catch let error as DecodingError {
            throw ImportError.corruptLedger(path: path, detail: Self.explain(error))
        } catch {
            throw ImportError.corruptLedger(path: path, detail: "not JSON")
        }
        guard document.format == LedgerDocument.formatName else {
            throw ImportError.corruptLedger(path: path, detail: "not a mediashell import ledger")
        }
        guard document.version <= LedgerDocument.currentVersion else {
            throw ImportError.corruptLedger(path: path, detail: "written by a newer mediashell (version \(document.version))")
        }
        guard document.camera == cameraKey else {
            throw ImportError.corruptLedger(path: path, detail: "it belongs to another camera, \(document.camera)")
        }
        return document
    }

    static func explain(_ error: DecodingError) -> String {
        switch error {
        case .dataCorrupted(let context) where context.codingPath.isEmpty: return "not JSON"
        case .keyNotFound(let key, _): return "no '\(key.stringValue)' field"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            let where_ = context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
            return "a bad value at \(where_.isEmpty ? "the top" : where_)"
        @unknown default: return "unreadable"
        }
    }
}

/// The run lock of one import; released by `end()` (or when the process ends).
public final class LedgerRun: Sendable {
    /// The locked file's descriptor until `end()`.
    private let fd: Locked<Int32?>

    init(fd: Int32) { self.fd = Locked(fd) }

    public func end() {
        fd.withLock { fd in
            if let held = fd { LocalDisk.unlock(held) }
            fd = nil
        }
    }

    deinit { end() }
}
