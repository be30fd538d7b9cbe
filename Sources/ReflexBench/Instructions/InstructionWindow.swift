/// The one function whose calls callgrind counts (`--toggle-collect` on its name): collection
/// starts as it is entered and stops as it returns, so a kernel's set-up is never counted.
enum InstructionWindow {
    /// The pattern callgrind is given for this function's mangled name.
    static let collectPattern = "*InstructionWindow*counted*"

    @inline(never)
    static func counted(_ body: () -> Void) {
        body()
    }
}
