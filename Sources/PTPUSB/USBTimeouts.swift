import Foundation

/// How long the USB transport waits before giving up, in seconds. A device that stops answering becomes
/// a `PTPError.timeout` naming the operation, never a hang.
public struct USBTimeouts: Equatable, Sendable {
    /// Each bulk transfer: the device taking a command, sending the next chunk of a data phase, or
    /// answering. A device slower than this to start a large download fails the operation.
    public var transfer: TimeInterval
    /// Class requests on the control pipe (Cancel, Get Device Status, Device Reset) and clear-halt.
    public var control: TimeInterval
    /// After an error, how long to wait for a device to finish a cancelled transaction and go quiet.
    public var recovery: TimeInterval

    public init(transfer: TimeInterval = 10, control: TimeInterval = 2, recovery: TimeInterval = 3) {
        self.transfer = transfer
        self.control = control
        self.recovery = recovery
    }
}
