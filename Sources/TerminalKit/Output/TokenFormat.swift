/// Text with `%X` tokens that a program fills in from its state (a prompt's format).
public enum TokenFormat {
    /// `format` with each `%X` replaced by `value(X)`; an unknown token stays as typed.
    public static func render(_ format: String, _ value: (Character) -> String?) -> String {
        var result = ""
        var iterator = format.makeIterator()
        while let character = iterator.next() {
            guard character == "%" else {
                result.append(character)
                continue
            }
            guard let token = iterator.next() else {
                result.append("%")
                break
            }
            result += value(token) ?? "%" + String(token)
        }
        return SafeText.display(result)
    }
}
