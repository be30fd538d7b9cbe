/// The quick menu's state: open or not, and the line the dials are on. Walked by the dials
/// (one moves the highlight, one changes the value) and by touch (see InterfaceController).
public struct QuickMenu: Sendable, Equatable {
    public private(set) var isOpen = false
    public private(set) var highlighted = QuickMenuItem.format

    public init() {}

    public mutating func open() {
        isOpen = true
    }

    public mutating func close() { isOpen = false }

    /// Moves the highlight `steps` lines, round the menu.
    public mutating func move(by steps: Int) {
        let items = QuickMenuItem.allCases
        highlighted = items[((highlighted.rawValue + steps) % items.count + items.count) % items.count]
    }

    public mutating func highlight(_ item: QuickMenuItem) { highlighted = item }
}
