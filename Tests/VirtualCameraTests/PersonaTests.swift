import Foundation
import PTP
import Testing

@testable import VirtualCamera

/// Personas change who the virtual camera says it is; the generic one changes nothing.
@Suite struct PersonaTests {
    @Test func theGenericPersonasDeviceInfoIsByteIdenticalToTheDefault() throws {
        let card = try DemoCard.make()
        let plain = VirtualCamera(card: card)
        let generic = VirtualCamera(card: card, persona: .named(.generic))
        #expect(plain.deviceInfo.encoded() == generic.deviceInfo.encoded())
        #expect(generic.deviceInfo.vendorExtensionID == 0)
        #expect(generic.deviceInfo.manufacturer == "mediashell")
    }

    @Test func everyPersonaHasAName() {
        for name in PersonaName.allCases {
            #expect(Persona.named(name).name == name)
            #expect(PersonaName(rawValue: name.rawValue) == name)
        }
        #expect(PersonaName.help.contains("generic"))
    }

    @Test func aVendorPersonaKeepsTheCardsSerialNumber() throws {
        let card = try DemoCard.make()
        var identity = VirtualCamera.Identity()
        identity.serialNumber = "MSH-123"
        let camera = VirtualCamera(card: card, identity: identity, persona: .named(.fujiX))
        #expect(camera.deviceInfo.vendorExtensionID == VendorExtensionID.fuji.rawValue)
        #expect(camera.deviceInfo.manufacturer == "FUJIFILM")
        #expect(camera.deviceInfo.serialNumber == "MSH-123")
    }
}
