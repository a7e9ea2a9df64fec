/// How much a line on standard error matters: `error: ...`, `warning: ...`, or a notice said plainly.
public enum ReportSeverity: String, Sendable {
    case error, warning, notice
}
