import Foundation
import PTP

extension Camera {
    /// More than this apart, the camera's clock is worth a word.
    public static let clockTolerance: TimeInterval = 120

    /// The camera's clock (DateTime, where it offers it) against `now`; nil when it offers none or they agree
    /// within `clockTolerance`. Positive: the camera is ahead.
    public func clockDifference(now: Date = Date()) -> TimeInterval? {
        guard propertyCodes.contains(.dateTime), let description = try? describeProperty(.dateTime),
            case .string(let text) = description.current, let clock = PTPDateTime.parse(text)
        else { return nil }
        let difference = clock.timeIntervalSince(now)
        return abs(difference) > Self.clockTolerance ? difference : nil
    }
}
