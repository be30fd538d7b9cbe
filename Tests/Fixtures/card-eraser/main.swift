// A child process for the delete SIGKILL test: deletes the card's items one after another,
// newest first, as review's Delete does (CardEraser), announcing each on stdout *before*
// deleting it, until none is left or it is killed.
//
//     card-eraser CARD
import ReflexStorage
#if canImport(Glibc)
import Glibc
#endif

/// One write(2) per line: a line on a pipe is then all there or not at all.
func say(_ line: String, to fd: Int32) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
}

let arguments = CommandLine.arguments
guard arguments.count == 2 else {
    say("usage: card-eraser CARD", to: 2)
    exit(2)
}
let card = arguments[1]
for item in CardCatalog.items(onCardAt: card) {
    say(item.name, to: 1)
    do {
        try CardEraser.delete(item, onCardAt: card)
    } catch {
        say("card-eraser: \(error)", to: 2)
        exit(1)
    }
}
