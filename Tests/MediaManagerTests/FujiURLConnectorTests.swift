import Connectors
import MediaManager
import Testing

/// `ptpip:` on Fuji's port is refused before anything is sent, with the `fuji:` URL that opens it.
@Suite struct FujiURLConnectorTests {
    @Test func ptpipOnFujisPortNamesTheFujiURL() {
        #expect {
            _ = try CameraConnector.open(.ptpip(host: "127.0.0.1", port: 55740, eventPort: 55740))
        } throws: { error in
            guard case CameraOpenError.fujifilmNotPTPIP(let host, let fuji, nil) = error else { return false }
            return host == "127.0.0.1" && fuji == .fuji(host: "127.0.0.1", port: 55740, eventPort: 55741)
        }
    }
}
