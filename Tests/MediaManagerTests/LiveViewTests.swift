import Foundation
import PTP
import TestSupport
import Testing
import VirtualCamera

@testable import MediaManager

/// Live view in our client (issue 42): against the `canon-eos` and `nikon` personas in-process and over
/// PTP/IP every frame comes once and in order (each persona frame names its number in a JPEG comment), the
/// body is handed back when it stops, and a camera without live view says so; the dialects' frame data
/// read as hostile bytes.
@Suite(.serialized) struct LiveViewTests {
    typealias Rig = DialectSessionTests.Rig

    @Test(arguments: [PersonaName.canonEOS, .nikon], DialectSessionTests.Link.allCases)
    func everyFrameComesOnceAndInOrder(_ persona: PersonaName, _ link: DialectSessionTests.Link) throws {
        let rig = try Rig(persona, link: link)
        let live = try rig.session.camera.startLiveView()
        var numbers: [Int] = []
        for _ in 0..<8 {
            let jpeg = try live.next()
            #expect(jpeg.starts(with: [0xFF, 0xD8, 0xFF]), "the JPEG alone, without the body's header")
            numbers += [liveViewFrameNumber(jpeg)].compactMap { $0 }
        }
        live.stop()
        #expect(numbers.count == 8)
        #expect(zip(numbers, numbers.dropFirst()).allSatisfy { $0 < $1 }, "\(numbers)")
        // Stopped: a Canon's view is back on its screen, a Nikon has left live view.
        switch persona {
        case .canonEOS:
            #expect(throws: PTPError.self) {
                _ = try rig.session.camera.session.request(.canonEOSGetViewFinderData, [0x0020_0000, 0, 0])
            }
        default:
            #expect(throws: PTPError.self) { _ = try rig.session.camera.session.request(.nikonGetLiveViewImg) }
        }
    }

    @Test func theStandardCameraHasNone() throws {
        let rig = try Rig(.generic, link: .inProcess)
        #expect(throws: CameraCapabilityError.notOffered("live view")) { _ = try rig.session.camera.startLiveView() }
    }

    @Test func canonBlocksAreCheckedAgainstTheData() throws {
        func block(_ type: UInt32, _ payload: [UInt8], length: UInt32? = nil) -> [UInt8] {
            var w = PTPWriter()
            w.uint32(length ?? UInt32(8 + payload.count))
            w.uint32(type)
            w.raw(payload)
            return w.bytes
        }
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3]
        #expect(try CanonEOSLiveView.jpeg(in: block(5, [1, 0, 0, 0]) + block(1, jpeg)) == jpeg)
        #expect(try CanonEOSLiveView.jpeg(in: block(11, jpeg)) == jpeg)
        for hostile in [block(1, jpeg, length: 1_000), block(1, jpeg, length: 4), block(5, [1, 2, 3, 4]), [1, 2, 3], []] {
            #expect(throws: LiveViewError.self) { _ = try CanonEOSLiveView.jpeg(in: hostile) }
        }
    }

    @Test func nikonsJPEGIsFoundAfterItsHeader() throws {
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xDB, 9, 9]
        #expect(try NikonLiveView.jpeg(in: [UInt8](repeating: 0, count: 384) + jpeg) == jpeg)
        #expect(try NikonLiveView.jpeg(in: [0xFF, 0xD8, 0x00] + jpeg) == jpeg, "FF D8 not followed by FF is header")
        #expect(throws: LiveViewError.self) { _ = try NikonLiveView.jpeg(in: [UInt8](repeating: 0xFF, count: 64)) }
        #expect(throws: LiveViewError.self) { _ = try NikonLiveView.jpeg(in: []) }
    }
}
