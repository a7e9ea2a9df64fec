import Foundation
@testable import FujiWiFi
import POSIX
import PTP
import TestSupport
import Testing

extension FujiNetwork {
    /// A body that answers GetDeviceInfo with an empty data phase (libgphoto2 notes an X-T4 on Wi-Fi doing
    /// so) still opens: FUJIFILM, the model from its init answer, the operations Fuji's Wi-Fi bodies answer.
    @Suite struct EmptyDeviceInfo {
        @Test func anEmptyDeviceInfoIsStoodInFor() throws {
            let camera = try ScriptedCamera()
            defer { camera.close() }
            let (initiator, socket) = try connectScripted(camera)
            defer { socket.close() }
            let session = PTPSession(transport: FujiDeviceInfoSubstitute(initiator, model: initiator.deviceName))
            let opened = Background { try session.open() }
            let open = try socket.readContainer()
            #expect(open.header.code == OperationCode.openSession.rawValue)
            try socket.send(responseBytes(transactionID: open.header.transactionID), .eachWait(5))
            let info = try socket.readContainer()
            #expect(info.header.code == OperationCode.getDeviceInfo.rawValue)
            try socket.send(try dataBytes(code: 0x1001, transactionID: info.header.transactionID, payload: [])
                + responseBytes(transactionID: info.header.transactionID), .eachWait(5))
            try opened.result()
            #expect(session.deviceInfo.manufacturer == "FUJIFILM")
            #expect(session.deviceInfo.model == "X-T20")
            #expect(session.deviceInfo.vendorExtensionID == 0xE)
            #expect(session.supports(.getPartialObject) && session.supports(.initiateOpenCapture))
            initiator.close()
        }

        /// A body that sends its DeviceInfo is taken at its word.
        @Test func aRealDeviceInfoPassesThrough() throws {
            let camera = try ScriptedCamera()
            defer { camera.close() }
            let (initiator, socket) = try connectScripted(camera)
            defer { socket.close() }
            var own = DeviceInfo()
            own.manufacturer = "FUJIFILM"
            own.model = "X-H1"
            let session = PTPSession(transport: FujiDeviceInfoSubstitute(initiator, model: "ignored"))
            let opened = Background { try session.open() }
            let open = try socket.readContainer()
            try socket.send(responseBytes(transactionID: open.header.transactionID), .eachWait(5))
            let info = try socket.readContainer()
            try socket.send(try dataBytes(code: 0x1001, transactionID: info.header.transactionID, payload: own.encoded())
                + responseBytes(transactionID: info.header.transactionID), .eachWait(5))
            try opened.result()
            #expect(session.deviceInfo.model == "X-H1")
            initiator.close()
        }
    }
}
