/// The one function whose calls callgrind counts (`--toggle-collect` on its name): collection
/// starts as it is entered and stops as it returns, so a kernel's set-up is never counted.
enum InstructionWindow {
    /// The patterns callgrind is given for this function's mangled name: one to count inside
    /// it, another to dump a profile after each call (callgrind keeps one setting a pattern, so
    /// the two must be spelled differently).
    static let collectPattern = "*InstructionWindow*counted*"
    static let dumpPattern = "*InstructionWindowO7counted*"

    @inline(never)
    static func counted(_ body: () -> Void) {
        body()
    }
}
