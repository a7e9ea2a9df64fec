import PTP

/// The `fuji-x` persona's place: Fujifilm's Wi-Fi framing and function-mode handshake are the Fujifilm
/// dialect's work. Until then it is the generic camera under Fujifilm's name and vendor extension.
enum FujiXPersona {
    static func make() -> Persona {
        var persona = Persona(name: .fujiX)
        persona.manufacturer = "FUJIFILM"
        persona.model = "X-T20"
        persona.vendorExtensionID = VendorExtensionID.fuji.rawValue
        return persona
    }
}
