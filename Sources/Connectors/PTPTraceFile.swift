import Foundation
import POSIX
import PTP

/// `--debug-ptp FILE`: the trace file, begun with what a maintainer needs to read it (`program` and its
/// version, time, system, whether names are redacted). The cameras opened afterwards record into it.
public enum PTPTraceFile {
    public static func start(path: String, redacted: Bool, program: String) throws -> PTPTrace {
        let trace = try PTPTrace(path: LocalDisk.expandingTilde(path), redact: redacted)
        var system = utsname()
        uname(&system)
        let kernel = withUnsafeBytes(of: &system.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let machine = withUnsafeBytes(of: &system.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        trace.note("\(program) PTP trace, begun \(ISO8601DateFormatter().string(from: Date()))")
        trace.note("system: Linux \(kernel) \(machine)")
        trace.note(
            redacted
                ? "names redacted: object names, serial numbers and labels replaced; bytes of datasets withheld"
                : "names NOT redacted (use --debug-ptp-redact to replace them before sharing this file)")
        trace.note("columns: seconds since start, > to the camera / < from it / ! failure, container, details")
        return trace
    }
}
