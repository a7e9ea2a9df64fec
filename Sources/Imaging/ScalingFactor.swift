/// A fraction `numerator/denominator` by which libjpeg-turbo can scale while decoding (1/8, 1/4, … 1).
public struct ScalingFactor: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let numerator: Int
    public let denominator: Int

    /// The fraction in lowest terms; `denominator` must be positive.
    public init(_ numerator: Int, _ denominator: Int) {
        precondition(denominator > 0)
        var (a, b) = (numerator, denominator)
        while b != 0 { (a, b) = (b, a % b) }
        let gcd = Swift.max(a, 1)
        self.numerator = numerator / gcd
        self.denominator = denominator / gcd
    }

    public static let one = ScalingFactor(1, 1)

    /// A length after scaling, rounded up as libjpeg does (`TJSCALED`).
    public func scaled(_ length: Int) -> Int {
        (length * numerator + denominator - 1) / denominator
    }

    public func scaled(_ size: PixelSize) -> PixelSize {
        PixelSize(width: scaled(size.width), height: scaled(size.height))
    }

    public static func < (lhs: ScalingFactor, rhs: ScalingFactor) -> Bool {
        lhs.numerator * rhs.denominator < rhs.numerator * lhs.denominator
    }

    public var description: String { "\(numerator)/\(denominator)" }
}
