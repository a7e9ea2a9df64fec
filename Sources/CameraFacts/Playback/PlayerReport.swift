/// The external player's side of the status: which player, whether it still runs, and where it says it is.
/// Encoded for `status --json` with the problem in words; never decoded (the words do not give the facts back).
public struct PlayerReport: Sendable, Encodable, Equatable {
    /// "mpv".
    public var name: String
    /// False once the player exited (closed by the user, or crashed); playback goes on without it.
    public var running: Bool
    /// The position the player itself reported (its `time-pos`), when it answered.
    public var position: Double?
    /// The loopback address the player reads the file from.
    public var streamURL: String?
    /// What went wrong with the player, when something did (it did not start, stopped answering, exited).
    public var problem: PlaybackError?

    public init(name: String, running: Bool, position: Double? = nil, streamURL: String? = nil, problem: PlaybackError? = nil) {
        self.name = name
        self.running = running
        self.position = position
        self.streamURL = streamURL
        self.problem = problem
    }

    private enum CodingKeys: String, CodingKey { case name, running, position, streamURL, problem }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(running, forKey: .running)
        try container.encodeIfPresent(position, forKey: .position)
        try container.encodeIfPresent(streamURL, forKey: .streamURL)
        try container.encodeIfPresent(problem?.description, forKey: .problem)
    }
}
