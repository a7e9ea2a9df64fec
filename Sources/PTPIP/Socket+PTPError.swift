import Foundation
import POSIX
import PTP

// PTPIP's boundary with POSIX: sockets' waits take this module's timeouts (each wait bounded, nil for
// ever), and a failed system call becomes a `PTPError` here, nowhere else.

/// Runs `body`, turning a failed system call into a `PTPError`.
func translatingSystemErrors<R>(_ body: () throws(SystemError) -> R) throws(PTPError) -> R {
    do {
        return try body()
    } catch {
        throw PTPError(error)
    }
}

extension Socket {
    /// Waits until the socket is readable (data, end of stream or an error); false after `timeout`.
    func waitReadable(timeout: TimeInterval?) throws(PTPError) -> Bool {
        try translatingSystemErrors { () throws(SystemError) in try waitReadable(deadline: timeout.map { .after($0) }) }
    }

    /// Fills `buffer`; `timeout` bounds each wait for more bytes. Returns fewer bytes than asked only when
    /// the peer ended the stream (0: it ended before the first byte).
    func receive(into buffer: UnsafeMutableRawBufferPointer, timeout: TimeInterval?) throws(PTPError) -> Int {
        try translatingSystemErrors { () throws(SystemError) in try receive(into: buffer, Self.patience(timeout)) }
    }

    /// Sends all of `bytes`; `timeout` bounds each wait for the peer to take more.
    func send(_ bytes: UnsafeRawBufferPointer, timeout: TimeInterval?) throws(PTPError) {
        try translatingSystemErrors { () throws(SystemError) in try send(bytes, Self.patience(timeout)) }
    }

    func send(_ bytes: [UInt8], timeout: TimeInterval?) throws(PTPError) {
        try translatingSystemErrors { () throws(SystemError) in try send(bytes, Self.patience(timeout)) }
    }

    private static func patience(_ timeout: TimeInterval?) -> Patience {
        timeout.map { .eachWait($0) } ?? .forever
    }
}
