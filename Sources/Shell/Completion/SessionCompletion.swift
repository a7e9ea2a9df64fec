import CommandKit
import MediaManager
import PTP
import TerminalKit

/// Completion over the open camera's cached catalog: one `NameIndex` per folder, built on first use and
/// kept until the catalog changes (its generation moves) or another camera is opened. Never asks the
/// device anything, so Tab stays instant on a slow link and with thousands of names.
public final class SessionCompletion: CompletionContext {
    private weak var interpreter: Interpreter?
    private var indexes: [String: NameIndex] = [:]
    private var catalogID: ObjectIdentifier?
    private var generation = -1
    /// How many folder indexes were built (for tests and benchmarks).
    public private(set) var indexesBuilt = 0

    init(interpreter: Interpreter) {
        self.interpreter = interpreter
    }

    public func remoteEntries(inFolder folder: String) -> NameIndex {
        guard let interpreter, let catalog = interpreter.media?.catalog else { return .empty }
        return index(of: RemotePath.resolve(folder, from: interpreter.state.folder), in: catalog)
    }

    public func settingNames() -> [String] { Settings.names }

    public func settingValues(for name: String) -> [String] { Settings.fixedValues(of: name) }

    /// The rows of the last `ls -n`, each as written from the current folder (a folder ending in `/`).
    public func numberedNames() -> [String] {
        guard let interpreter, let catalog = interpreter.media?.catalog, let paths = interpreter.state.numbered else { return [] }
        let names = interpreter.names(catalog)
        return paths.map { names.typed($0) + (catalog.isFolder($0) ? "/" : "") }
    }

    /// The schemes, and the URLs of the cameras the last `devices` found.
    public func cameraURLSchemes() -> [String] {
        ["dir:", "fuji:", "ptpip:", "sim:", "usb:"] + (interpreter?.state.discoveredURLs ?? [])
    }

    public func aliasNames() -> [String] { interpreter.map { Array($0.aliases.keys) } ?? [] }

    public func aliasBody(_ name: String) -> String? { interpreter?.aliases[name] }

    /// From DeviceInfo, which the session holds: no request.
    public func propertyNames() -> [String] {
        guard let camera = interpreter?.media?.camera else { return [] }
        return camera.propertyCodes.map { PropertyMeaning.of($0).name }
    }

    /// The property's allowed values, from its description: asked of the camera (GetDevicePropDesc, one
    /// request) the first time a camera's property is completed, then kept for that camera.
    public func propertyValues(for name: String) -> [String] {
        guard let camera = interpreter?.media?.camera,
            let meaning = PropertyMeaning.named(name, among: camera.propertyCodes)
        else { return [] }
        let id = ObjectIdentifier(camera)
        if propertyCamera != id {
            propertyValueCache = [:]
            propertyCamera = id
        }
        if let cached = propertyValueCache[meaning.code.rawValue] { return cached }
        guard let description = try? camera.describeProperty(meaning.code) else { return [] }
        let values = meaning.completions(description).map(SafeText.display)
        propertyValueCache[meaning.code.rawValue] = values
        return values
    }
    private var propertyValueCache: [UInt16: [String]] = [:]
    private var propertyCamera: ObjectIdentifier?

    /// Builds the current folder's index ahead of the next Tab (after a command changed the catalog or folder).
    public func prepare() {
        guard let interpreter, let catalog = interpreter.media?.catalog else {
            indexes = [:]
            return
        }
        _ = index(of: interpreter.state.folder, in: catalog)
    }

    private func index(of path: String, in catalog: MediaCatalog) -> NameIndex {
        let id = ObjectIdentifier(catalog)
        let current = catalog.generation
        if id != catalogID || current != generation {
            indexes = [:]
            catalogID = id
            generation = current
        }
        if let cached = indexes[path] { return cached }
        guard let contents = catalog.contents(of: path) else { return .empty }
        let index = NameIndex(contents.map { CompletionEntry($0.name, isFolder: $0.isFolder) })
        indexes[path] = index
        indexesBuilt += 1
        return index
    }
}
