/// A parameter the camera sets itself, or one the photographer fixed on a dial.
public enum ManualValue<Value: Sendable & Hashable>: Sendable, Hashable {
    case auto
    case manual(Value)

    public var manualValue: Value? {
        if case .manual(let value) = self { return value }
        return nil
    }
}
