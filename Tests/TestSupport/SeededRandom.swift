import Foundation

/// The seed of every fuzz and random test, from one place: `MEDIASHELL_TEST_SEED` (decimal or 0x-hex) when
/// it is set, a fresh one from the clock when it is `random`, else a fixed default, so a plain run repeats
/// exactly and a failing case can be run again with the seed it printed.
public enum TestSeed {
    public static let variable = "MEDIASHELL_TEST_SEED"
    public static let fixed: UInt64 = 0x6D65_6469_6173_6865

    /// The run's base seed (every test mixes its own name into it).
    public static let base: UInt64 = parse(ProcessInfo.processInfo.environment[variable]) ?? fixed

    static func parse(_ text: String?) -> UInt64? {
        guard let text = text?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        if text == "random" { return UInt64(truncatingIfNeeded: DispatchTime.now().uptimeNanoseconds) ^ UInt64(getpid()) << 32 }
        if text.lowercased().hasPrefix("0x") { return UInt64(text.dropFirst(2), radix: 16) }
        return UInt64(text)
    }
}

/// A deterministic generator (SplitMix64) for fuzz inputs and random data. Made for a test by name, its
/// seed is the run's `TestSeed.base` mixed with that name; its description says how to run the case again,
/// so a fuzz test puts it in the comment of the expectations that can fail (`#expect(ok, "\(random)")`).
public struct SeededRandom: RandomNumberGenerator, Sendable, CustomStringConvertible {
    /// What a run sets `MEDIASHELL_TEST_SEED` to for this sequence again.
    public let base: UInt64
    public let name: String
    private var state: UInt64

    /// The generator of the test (or case) `name` in this run.
    public init(test name: String, base: UInt64 = TestSeed.base) {
        self.base = base
        self.name = name
        state = base ^ Self.fnv1a(name)
    }

    /// A generator for data that must be the same in every run, whatever the run's seed (fixtures, not fuzz).
    public init(fixed seed: UInt64) {
        base = seed
        name = ""
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// `count` bytes from this generator.
    public mutating func bytes(_ count: Int) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: count)
        var index = 0
        while index < count {
            let word = next()
            for shift in 0..<min(8, count - index) { result[index + shift] = UInt8(truncatingIfNeeded: word >> (8 * UInt64(shift))) }
            index += 8
        }
        return result
    }

    public var description: String {
        "\(name.isEmpty ? "fixed" : name) seed 0x\(String(base, radix: 16)) (run again with \(TestSeed.variable)=0x\(String(base, radix: 16)))"
    }

    /// FNV-1a of the name's bytes: stable across runs and machines (Swift's `hashValue` is not).
    static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return hash
    }
}
