import CameraFacts
import POSIX

extension ImportError {
    /// Runs calls on the local disk, a failure becoming `.local`.
    static func onDisk<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as SystemError { throw ImportError.local(error) }
    }
}
