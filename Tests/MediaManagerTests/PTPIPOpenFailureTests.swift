import Connectors
import Foundation
import FujiWiFi
import MediaManager
import POSIX
import PTP
import TestSupport
import Testing
import VirtualCamera

/// A `ptpip:` open that fails says what was seen there: nothing (refused, silence), an HTTP server, or a
/// Fujifilm body, the last only when one answers Fuji's own init request. All on 127.0.0.1, on ports chosen at
/// run time; Fuji's port is given to the connector (`Options.fujiPort`), as 55740 cannot be had in a test.
@Suite(.serialized, .tags(.port), .notInFastRun) struct PTPIPOpenFailureTests {
    /// A port nothing listens on (one the system gave and took back).
    private func refusedPort() throws -> UInt16 {
        let listener = try Socket.listen(host: "127.0.0.1", port: 0)
        defer { listener.close() }
        return listener.localPort
    }

    private func options(fujiPort: UInt16) -> CameraConnector.Options {
        var options = CameraConnector.Options()
        options.timeout = 1
        options.fujiPort = fujiPort
        return options
    }

    @Test func ptpipOnFujisPortNamesTheFujiURL() {
        #expect {
            _ = try CameraConnector.open(.ptpip(host: "127.0.0.1", port: 55740, eventPort: 55740))
        } throws: { error in
            guard case CameraOpenError.fujiPortNotPTPIP(let host, let fuji) = error else { return false }
            return host == "127.0.0.1" && fuji == .fuji(host: "127.0.0.1", port: 55740, eventPort: 55741)
        }
    }

    /// Something that takes connections on Fuji's port and says nothing is not a Fujifilm body: the open
    /// says that PTP/IP's port refused the connection.
    @Test func aSilentListenerOnFujisPortIsNotTakenForAFujifilmBody() throws {
        let silent = try Socket.listen(host: "127.0.0.1", port: 0)
        defer { silent.close() }
        let port = try refusedPort()
        #expect {
            _ = try CameraConnector.open(.ptpip(host: "127.0.0.1", port: port, eventPort: port), options: options(fujiPort: silent.localPort))
        } throws: { error in
            guard case PTPError.system(let failure) = error else { return false }
            return failure.errno == ECONNREFUSED
        }
    }

    /// An HTTP server where PTP/IP was asked for is said to be one, with its status line.
    @Test func anHTTPServerIsSaidToBeOne() throws {
        let listener = try Socket.listen(host: "127.0.0.1", port: 0)
        defer { listener.close() }
        let served = Mailbox<Bool>()
        Thread {
            guard (try? listener.waitReadable(deadline: .after(10))) == true, let socket = try? listener.accept() else {
                served.put(false)
                return
            }
            var request = [UInt8](repeating: 0, count: 256)
            _ = try? request.withUnsafeMutableBytes { try socket.receiveSome(into: $0, .eachWait(5)) }
            try? socket.send(Array("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8), .eachWait(5))
            socket.close()
            served.put(true)
        }.start()
        let port = listener.localPort
        #expect {
            _ = try CameraConnector.open(.ptpip(host: "127.0.0.1", port: port, eventPort: port), options: options(fujiPort: try refusedPort()))
        } throws: { error in
            guard case CameraOpenError.httpServer(let address, let statusLine) = error else { return false }
            return address == "ptpip:127.0.0.1:\(port)" && statusLine == "HTTP/1.1 400 Bad Request"
        }
        #expect(served.take(timeout: 10) == true)
    }

    /// `serve --persona fuji-x` on another port than Fuji's: it hangs up on the PTP/IP request, as a body does,
    /// answers Fuji's, and the open names the `fuji:` URL of that port.
    @Test func aFujifilmBodyIsNamedOnlyOnceItAnswersFujisRequest() throws {
        let camera = VirtualCamera(card: try DemoCard.make(), persona: .named(.fujiX))
        let server = FujiServer(host: "127.0.0.1", port: 0, eventPort: 0, name: camera.identity.model) { connection, peer in
            camera.serve(connection, peer: peer.address)
        }
        try server.start()
        defer { server.stop() }
        let port = server.port
        #expect {
            _ = try CameraConnector.open(.ptpip(host: "127.0.0.1", port: port, eventPort: port), options: options(fujiPort: try refusedPort()))
        } throws: { error in
            guard case CameraOpenError.fujifilmNotPTPIP(let host, let fuji, _) = error else { return false }
            return host == "127.0.0.1" && fuji == .fuji(host: "127.0.0.1", port: port, eventPort: port + 1)
        }
    }
}
