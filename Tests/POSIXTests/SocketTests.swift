import POSIX
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite(.tags(.port), .notInFastRun) struct SocketTests {
    @Test func bytesCrossALoopbackConnection() throws {
        let listener = try Socket.listen(host: "127.0.0.1", port: 0)
        let client = try Socket.connect(host: "127.0.0.1", port: listener.localPort, timeout: 5)
        let server = try #require(try listener.accept())
        #expect(server.peerHost == "127.0.0.1")
        try client.send(Array("hello".utf8), .until(.after(5)))
        var buffer = [UInt8](repeating: 0, count: 5)
        let got = try buffer.withUnsafeMutableBytes { (raw) throws(SystemError) in try server.receive(into: raw, .eachWait(5)) }
        #expect(got == 5 && buffer == Array("hello".utf8))
        client.close()
        let end = try buffer.withUnsafeMutableBytes { (raw) throws(SystemError) in try server.receiveSome(into: raw, .until(.after(5))) }
        #expect(end == 0)
    }

    @Test func aRefusedConnectionKeepsItsErrno() throws {
        // A port just released: nobody listens there.
        let port = try Socket.listen(host: "127.0.0.1", port: 0).localPort
        #expect {
            try Socket.connect(host: "127.0.0.1", port: port, timeout: 5)
        } throws: { error in
            (error as? SystemError)?.errno == ECONNREFUSED && (error as? SystemError)?.isNobodyListening == true
        }
    }

    @Test func aReceiveThatRunsOutIsATimeout() throws {
        let (a, b) = try Socket.pair()
        var buffer = [UInt8](repeating: 0, count: 1)
        #expect {
            try buffer.withUnsafeMutableBytes { (raw) throws(SystemError) in try a.receiveSome(into: raw, .until(.now)) }
        } throws: { error in
            (error as? SystemError)?.isTimeout == true
        }
        withExtendedLifetime(b) {}
    }

    /// The race `MPVConnection.close` had: a reader blocked on a socket another thread closes. The close wakes
    /// the reader, and the descriptor number is not released (and so cannot be handed to another file) until
    /// the reader has let go of it.
    @Test func closingWhileAReaderWaitsWakesItAndKeepsTheDescriptorUntilItReturns() throws {
        let (a, b) = try Socket.pair()
        let number = try a.withDescriptor("test") { $0 }
        let entered = Gate()
        let release = Gate()
        let outcome = LockedBox<SystemError?>(nil)
        let reader = try JoinableThread(name: "test-reader") {
            do {
                _ = try a.withDescriptor("test") { fd in
                    entered.open()
                    release.wait()
                    return fd
                }
                var buffer = [UInt8](repeating: 0, count: 1)
                let got = try buffer.withUnsafeMutableBytes { (raw) throws(SystemError) in try a.receiveSome(into: raw, .forever) }
                Issue.record("the reader got \(got) bytes from a closed socket")
            } catch {
                outcome.set(error as? SystemError)
            }
        }
        entered.wait()
        a.close()
        // Still leased: the number is not free, so a new descriptor cannot take it.
        let probe = open("/dev/null", O_RDONLY | O_CLOEXEC)
        #expect(probe != number)
        Glibc.close(probe)
        release.open()
        reader.join()
        #expect(outcome.value == SystemError(.receive, on: "socket pair", errno: ESHUTDOWN, detail: "socket closed"))
        _ = b
    }

    @Test func aDescriptorIsReleasedOnceTheLastUserReturns() throws {
        let (a, _) = try Socket.pair()
        let number = try a.withDescriptor("test") { $0 }
        var before = stat()
        #expect(fstat(number, &before) == 0)
        a.close()
        // Other tests open descriptors in parallel and may take the freed number at once, so the test
        // does not ask for the lowest free number: it asks that the socket is no longer behind it.
        var after = stat()
        let stillOpen = fstat(number, &after) == 0
        #expect(!stillOpen || after.st_ino != before.st_ino || after.st_dev != before.st_dev)
        #expect(a.isClosed)
    }
}
