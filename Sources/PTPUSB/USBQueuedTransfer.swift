import Foundation

/// A bulk-in transfer handed to the bus by `USBPipe.submitBulkIn` and not yet reaped. Its buffer belongs
/// to the bus until `USBPipe.reapBulkIn` returns for it; every submitted transfer is reaped exactly once.
public protocol USBQueuedTransfer: AnyObject, Sendable {}
