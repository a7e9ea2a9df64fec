import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Who writes a generation: the tool and its version, on which computer (`creatorinfo`).
public struct MHLCreator: Sendable, Equatable {
    public var tool: String
    public var version: String
    public var hostname: String

    public init(tool: String, version: String, hostname: String = MHLCreator.thisComputer()) {
        self.tool = tool
        self.version = version
        self.hostname = hostname
    }

    /// This computer's name (`gethostname`: no name service asked); `localhost` when it has none.
    public static func thisComputer() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? "localhost" : name
    }

    /// A generation made now by this creator.
    func generation(_ process: MHLGeneration.Process, ignoring ignored: [String], at date: Date) -> MHLGeneration {
        MHLGeneration(created: date, hostname: hostname, tool: tool, toolVersion: version, process: process, ignored: ignored)
    }
}
