import CameraFacts
import PTPFacts
import Testing

/// What a device property's values mean to a person, and what Tab offers for them.
@Suite struct PropertyMeaningTests {
    @Test func aNarrowRangeOffersEveryStep() {
        let meaning = PropertyMeaning.of(.batteryLevel)
        let narrow = DevicePropertyDescription(
            code: .batteryLevel, dataType: .uint8, writable: false, factoryDefault: .uint8(100), current: .uint8(50),
            form: .range(minimum: .uint8(0), maximum: .uint8(100), step: .uint8(25)))
        #expect(meaning.completions(narrow) == ["0%", "25%", "50%", "75%", "100%"])
    }

    @Test func textComesBackAsTheCameraSentIt() {
        let meaning = PropertyMeaning.of(DevicePropertyCode(0xD401))
        #expect(meaning.name == "0xd401")
        #expect(meaning.display(.string("Ann\u{1B}[31m")) == "Ann\u{1B}[31m")
    }
}
