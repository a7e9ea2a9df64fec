/// How a picture or video looks once its rotation is applied: wider than tall, taller than wide, or square.
public enum DisplayOrientation: String, Sendable, Equatable {
    case landscape
    case portrait
    case square

    /// The orientation of a `width` x `height` picture as displayed.
    public init(width: Int, height: Int) {
        if width > height {
            self = .landscape
        } else if height > width {
            self = .portrait
        } else {
            self = .square
        }
    }
}
