/// An operation request: the first phase of every transaction.
public struct PTPCommand: Equatable, Sendable, CustomStringConvertible {
    public var code: OperationCode
    public var transactionID: UInt32
    /// Up to five parameters.
    public var parameters: [UInt32]

    public init(_ code: OperationCode, transactionID: UInt32, parameters: [UInt32] = []) {
        self.code = code
        self.transactionID = transactionID
        self.parameters = parameters
    }

    public func parameter(_ index: Int) -> UInt32 { index < parameters.count ? parameters[index] : 0 }
    public var description: String { "\(code)(\(parameters.map { "0x" + String($0, radix: 16) }.joined(separator: ", ")))" }
}

/// The device's answer that ends a transaction.
public struct PTPResponse: Equatable, Sendable {
    public var code: ResponseCode
    public var transactionID: UInt32
    public var parameters: [UInt32]

    public init(_ code: ResponseCode, transactionID: UInt32, parameters: [UInt32] = []) {
        self.code = code
        self.transactionID = transactionID
        self.parameters = parameters
    }

    public func parameter(_ index: Int) -> UInt32 { index < parameters.count ? parameters[index] : 0 }
}

/// Something the device reports on its own: a new file, a removed store, a finished capture.
public struct PTPEvent: Equatable, Sendable {
    public var code: EventCode
    public var transactionID: UInt32
    public var parameters: [UInt32]

    public init(_ code: EventCode, transactionID: UInt32 = 0xFFFF_FFFF, parameters: [UInt32] = []) {
        self.code = code
        self.transactionID = transactionID
        self.parameters = parameters
    }

    public func parameter(_ index: Int) -> UInt32 { index < parameters.count ? parameters[index] : 0 }
}
