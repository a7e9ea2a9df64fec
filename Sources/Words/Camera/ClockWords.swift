import Foundation
import TextKit

/// What the shell says of a camera's clock far from this computer's.
public enum ClockWords {
    /// `the camera's clock is 3 h 02 min behind this computer; 'sync-time' sets it, 'import --shift +3h02m'
    /// corrects this card's times`.
    public static func warning(difference: TimeInterval) -> String {
        let shift = -(difference / 60).rounded() * 60
        return "the camera's clock is \(ShiftText.words(difference)) \(difference < 0 ? "behind" : "ahead of") this computer; "
            + "'sync-time' sets it, 'import --shift \(ShiftText.format(shift))' corrects this card's times"
    }
}
