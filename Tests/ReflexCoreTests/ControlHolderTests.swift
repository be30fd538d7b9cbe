import ReflexCore
import Testing

/// One phone controls at a time; the others may watch (issue 54, pairing).
@Suite struct ControlHolderTests {
    /// Each phone's try in turn, `(token, at)`: whether it may control.
    static func answers(_ holder: inout ControlHolder, _ tries: [(String, Double)]) -> [Bool] {
        tries.map { holder.mayControl(token: $0.0, at: $0.1) }
    }

    @Test func theFirstPhoneToControlHoldsTheControlsUntilItFallsSilent() {
        var holder = ControlHolder()
        let silence = ControlHolder.idleSeconds
        #expect(Self.answers(&holder, [("a", 0), ("b", 10), ("a", 50), ("b", 50 + silence - 0.1)]) == [true, false, true, false],
                "a holds them while it uses them")
        #expect(!holder.isFree(for: "b", at: 60) && holder.isFree(for: "a", at: 60))
        #expect(Self.answers(&holder, [("b", 50 + silence), ("a", 111)]) == [true, false], "a minute's silence lets them go")
        #expect(holder.holder == "b")
    }

    @Test func releasedTheyAreAnyonesAgain() {
        var holder = ControlHolder()
        #expect(Self.answers(&holder, [("a", 0)]) == [true])
        holder.release()
        #expect(Self.answers(&holder, [("b", 1)]) == [true])
    }
}
