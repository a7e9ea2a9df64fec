import CameraFacts
import Foundation
import PTPFacts
import TextKit

/// One property in `props --json` and `prop --json`.
public struct PropertyJSON: Encodable {
    var name: String
    var code: String
    var value: String
    var raw: Raw
    var writable: Bool
    var allowed: [String]?
    var range: [String: String]?

    /// The value as the camera sent it: a number or a string.
    enum Raw: Encodable {
        case number(Int64), text(String)
        func encode(to encoder: any Encoder) throws {
            var c = encoder.singleValueContainer()
            switch self {
            case .number(let n): try c.encode(n)
            case .text(let t): try c.encode(t)
            }
        }
    }

    public init(meaning: PropertyMeaning, description: DevicePropertyDescription) {
        name = meaning.name
        let hex = String(description.code.rawValue, radix: 16)
        code = "0x" + String(repeating: "0", count: 4 - hex.count) + hex
        value = SafeText.display(meaning.display(description.current))
        raw = description.current.signedValue.map(Raw.number) ?? .text(description.current.stringValue ?? value)
        writable = description.writable
        switch description.form {
        case .none: break
        case .enumeration: allowed = meaning.choices(description).map(SafeText.display)
        case .range(let minimum, let maximum, let step):
            let shown = { SafeText.display(meaning.display($0)) }
            range = ["min": shown(minimum), "max": shown(maximum), "step": shown(step)]
        }
    }

    public static func encode<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).flatMap { String(data: $0, encoding: .utf8) } ?? "null"
    }
}
