/// Where playback is: the seed's stopped/playing/paused, plus ended (the clip ran to its end).
public enum PlaybackState: String, Sendable, Codable, CaseIterable {
    case stopped
    case playing
    case paused
    case ended

    /// One symbol for the prompt: ▶ playing, ‖ paused, ■ stopped, ▶| ended (ASCII: `>`, `||`, `[]`, `>|`).
    public func symbol(ascii: Bool = false) -> String {
        switch self {
        case .playing: ascii ? ">" : "▶"
        case .paused: ascii ? "||" : "‖"
        case .stopped: ascii ? "[]" : "■"
        case .ended: ascii ? ">|" : "▶|"
        }
    }
}
