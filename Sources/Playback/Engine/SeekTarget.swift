/// Where `seek` should go, as the user wrote it: the same cases as the shell's `SeekPosition`, so the shell
/// converts with a plain switch.
public enum SeekTarget: Sendable, Hashable, Codable {
    /// Seconds from the start.
    case absolute(seconds: Double)
    /// Seconds from the current position (negative goes back).
    case relative(seconds: Double)
    /// A share of the duration, 0...100.
    case percent(Double)
}
