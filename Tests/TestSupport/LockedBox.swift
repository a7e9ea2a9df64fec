import POSIX

/// A value shared between a test and the threads it starts (handlers, callbacks, servers): POSIX's
/// `Locked` with the few verbs tests use. The one lock box of the test targets; a test double with more
/// state than one value keeps it in a `Locked` of its own.
public final class LockedBox<Value: Sendable>: Sendable {
    private let locked: Locked<Value>

    public init(_ value: Value) { locked = Locked(value) }

    /// The value now (a copy).
    public var value: Value { locked.withLock { $0 } }

    public func set(_ new: Value) { locked.withLock { $0 = new } }

    /// Changes the value in place with the lock held, and returns what `body` returns.
    @discardableResult
    public func mutate<Result: Sendable>(_ body: (inout Value) -> Result) -> Result {
        locked.withLock { body(&$0) }
    }
}

extension LockedBox where Value: RangeReplaceableCollection {
    public func append(_ element: Value.Element) where Value.Element: Sendable { mutate { $0.append(element) } }
    public func append(contentsOf elements: Value) { mutate { $0.append(contentsOf: elements) } }
}

extension LockedBox where Value == Int {
    /// Adds one and returns the new count.
    @discardableResult
    public func increment() -> Int { mutate { $0 += 1; return $0 } }
}
