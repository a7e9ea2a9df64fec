/// What a `Range:` header asks of a file of known length. This endpoint serves one range per request (all a
/// player asks for); a header it cannot satisfy that way — past the end, inverted, several ranges, another
/// unit, garbage — gets 416 with the file's length, so the client learns the size and asks again.
enum ByteRangeRequest: Equatable {
    /// No `Range:` header: the whole file (200).
    case whole
    /// One satisfiable range, inclusive bounds, within the file (206).
    case range(ClosedRange<UInt64>)
    /// 416 Range Not Satisfiable.
    case unsatisfiable

    init(header: String?, length: UInt64) {
        guard let header else {
            self = .whole
            return
        }
        let text = header.trimmingASCIISpaces()
        guard text.count <= 64, text.lowercased().hasPrefix("bytes="), length > 0 else {
            self = .unsatisfiable
            return
        }
        let spec = text.dropFirst("bytes=".count).trimmingASCIISpaces()
        guard let dash = spec.firstIndex(of: "-") else {
            self = .unsatisfiable
            return
        }
        let first = spec[..<dash]
        let last = spec[spec.index(after: dash)...]
        func number(_ digits: Substring) -> UInt64? {
            guard !digits.isEmpty, digits.count <= 19, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            return UInt64(digits)
        }
        switch (first.isEmpty, last.isEmpty) {
        case (true, false):
            // The last N bytes.
            guard let suffix = number(last), suffix > 0 else {
                self = .unsatisfiable
                return
            }
            self = .range((length - min(suffix, length))...(length - 1))
        case (false, true):
            guard let start = number(first), start < length else {
                self = .unsatisfiable
                return
            }
            self = .range(start...(length - 1))
        case (false, false):
            guard let start = number(first), let end = number(last), start <= end, start < length else {
                self = .unsatisfiable
                return
            }
            self = .range(start...min(end, length - 1))
        case (true, true):
            self = .unsatisfiable
        }
    }
}

extension StringProtocol {
    fileprivate func trimmingASCIISpaces() -> Substring {
        var view = Substring(self)
        while view.first == " " || view.first == "\t" { view = view.dropFirst() }
        while view.last == " " || view.last == "\t" { view = view.dropLast() }
        return view
    }
}
