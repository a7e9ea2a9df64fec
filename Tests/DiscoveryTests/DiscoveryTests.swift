@testable import Discovery
import POSIX
import TestSupport
import Testing

/// The packets of discovery, both ways, and a browser finding an advertiser on loopback.
///
/// Multicast does not reach loopback on this machine (`lo` has no MULTICAST flag, and tests stay on
/// 127.0.0.1), so the browser here asks the advertiser unicast, at the ports it bound: the same questions
/// and answers as on a network, sent to one address instead of the group.
struct DiscoveryPacketTests {
    @Test func anAnnouncementDecodesToWhatWasAnnounced() throws {
        let message = MulticastDNS.announcement(
            instance: "Virtual Camera on box._ptp._tcp.local", hostName: "box.local", port: 40123,
            addresses: ["192.168.1.20"], ttl: 120)
        let decoded = try DNSMessage(decoding: message.encoded())
        #expect(decoded == message)
        #expect(MulticastDNS.cameras(in: decoded, from: "10.0.0.9") == [
            NetworkCamera(name: "Virtual Camera on box", host: "192.168.1.20", port: 40123, via: "mDNS")
        ])
    }

    @Test func compressedNamesAreFollowedAndLoopsRefused() throws {
        // A PTR answer whose data points back at the owner name's "_tcp.local" (offset 12 + 5).
        var bytes: [UInt8] = [0, 0, 0x84, 0, 0, 0, 0, 1, 0, 0, 0, 0]
        bytes += [4] + Array("_ptp".utf8) + [4] + Array("_tcp".utf8) + [5] + Array("local".utf8) + [0]
        bytes += [0, 12, 0, 1, 0, 0, 0, 120]
        bytes += [0, 5, 2] + Array("ab".utf8) + [0xC0, 17]
        let decoded = try DNSMessage(decoding: bytes)
        #expect(decoded.answers.first?.data == .ptr("ab._tcp.local"))

        // One question whose name is a pointer at itself: a loop, refused (pointers must point back).
        let loop: [UInt8] = [0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0xC0, 12, 0, 12, 0, 1]
        #expect(throws: DNSMessage.Malformed.self) { try DNSMessage(decoding: loop) }
        for cut in [3, 13, 20, bytes.count - 1] {
            #expect(throws: DNSMessage.Malformed.self) { try DNSMessage(decoding: Array(bytes.prefix(cut))) }
        }
    }

    @Test func aSearchAndAnAnswerRoundTrip() throws {
        let search = SSDPMessage.search(target: DiscoveryNames.serveTarget)
        let decoded = try #require(SSDPMessage(decoding: search.encoded()))
        #expect(decoded.isSearch)
        #expect(decoded["st"] == DiscoveryNames.serveTarget)
        #expect(decoded["MAN"] == "\"ssdp:discover\"")

        let canon = "HTTP/1.1 200 OK\r\nST: urn:schemas-canon-com:service:ICPO-SmartPhoneEOSSystemService:1\r\n"
            + "Location: http://192.168.1.2:49152/upnp/CameraDevDesc.xml\r\nUSN: uuid:x\r\n\r\n"
        let cameras = CameraBrowser.cameras(in: DatagramSocket.Datagram(bytes: Array(canon.utf8), host: "192.168.1.2", port: 1900))
        #expect(cameras.map(\.url) == ["ptpip:192.168.1.2"])
        #expect(SSDPMessage(decoding: Array(repeating: 0x41, count: 9000)) == nil)
        // A router's answer to a search for something else names no camera.
        let router = "HTTP/1.1 200 OK\r\nST: upnp:rootdevice\r\nLOCATION: http://192.168.1.1/\r\n\r\n"
        #expect(CameraBrowser.cameras(in: DatagramSocket.Datagram(bytes: Array(router.utf8), host: "192.168.1.1", port: 1900)).isEmpty)
    }
}

@Suite(.serialized, .tags(.port), .notInFastRun) struct DiscoveryLoopbackTests {
    private func advertiser() throws -> CameraAdvertiser {
        let advertiser = CameraAdvertiser(
            camera: CameraAdvertiser.Camera(name: "Virtual Camera on test", port: 40999, addresses: ["127.0.0.1"], uuid: "test"),
            bindHost: "127.0.0.1", ssdpPort: 0, mdnsPort: 0)
        try advertiser.start()
        return advertiser
    }

    @Test func ssdpFindsTheAdvertiser() throws {
        let advertiser = try advertiser()
        defer { advertiser.stop() }
        let targets = DiscoveryTargets(ssdp: [.init(host: "127.0.0.1", port: advertiser.ports.ssdp)], mdns: [])
        let found = CameraBrowser.find(seconds: 2, targets: targets)
        #expect(found.map(\.url) == ["ptpip:127.0.0.1:40999"])
        #expect(found.first?.via == "SSDP")
    }

    @Test func mdnsFindsTheAdvertiserByName() throws {
        let advertiser = try advertiser()
        defer { advertiser.stop() }
        let targets = DiscoveryTargets(ssdp: [], mdns: [.init(host: "127.0.0.1", port: advertiser.ports.mdns)])
        let found = CameraBrowser.find(seconds: 2, targets: targets)
        #expect(found == [NetworkCamera(name: "Virtual Camera on test", host: "127.0.0.1", port: 40999, via: "mDNS")])
    }

    @Test func bothAnswersMakeOneCamera() throws {
        let advertiser = try advertiser()
        defer { advertiser.stop() }
        let targets = DiscoveryTargets(
            ssdp: [.init(host: "127.0.0.1", port: advertiser.ports.ssdp)], mdns: [.init(host: "127.0.0.1", port: advertiser.ports.mdns)])
        let found = CameraBrowser.find(seconds: 2, targets: targets)
        #expect(found.map(\.url) == ["ptpip:127.0.0.1:40999"])
        #expect(found.first?.via == "mDNS")
        #expect(DiscoveryTargets(parsing: "ssdp=127.0.0.1:1,mdns=127.0.0.1:2") == targets.with(ports: (1, 2)))
        #expect(DiscoveryTargets(parsing: "bogus") == nil)
    }
}

extension DiscoveryTargets {
    fileprivate func with(ports: (UInt16, UInt16)) -> DiscoveryTargets {
        DiscoveryTargets(ssdp: [.init(host: "127.0.0.1", port: ports.0)], mdns: [.init(host: "127.0.0.1", port: ports.1)])
    }
}

/// Where `devices` asks, and how the answers become one line per camera.
struct DiscoveryTargetTests {
    /// The network's groups, and loopback at the same ports: a `serve --advertise` on 127.0.0.1 answers only
    /// there.
    @Test func theLocalTargetsAskLoopbackToo() {
        let targets = DiscoveryTargets.local()
        #expect(targets.ssdp.map(\.host) == ["239.255.255.250", "127.0.0.1"] && targets.ssdp.allSatisfy { $0.port == 1900 })
        #expect(targets.mdns.map(\.host) == ["224.0.0.251", "127.0.0.1"] && targets.mdns.allSatisfy { $0.port == 5353 })
        #expect(DiscoveryTargets.local(ssdpPort: 1, mdnsPort: 2).ssdp.allSatisfy { $0.port == 1 })
    }

    /// A server of this computer answering on loopback and at its network address is one camera, at the
    /// latter; a camera on loopback beside another one on the network at the same port is kept.
    @Test func aServerHeardOnLoopbackAndOnTheNetworkIsListedOnce() {
        let local = NetworkCamera(name: "mediashell serve", host: "127.0.0.1", port: 15740, via: "SSDP")
        let own = NetworkCamera(name: "Virtual Camera on box", host: "192.168.1.20", port: 15740, via: "mDNS")
        let other = NetworkCamera(name: "Canon camera", host: "192.168.1.30", port: 15740, via: "SSDP")
        #expect(CameraBrowser.merged([local, own, other], ownAddresses: ["192.168.1.20"]) == [own, other])
        #expect(CameraBrowser.merged([local, other], ownAddresses: ["192.168.1.20"]) == [local, other])
    }
}
