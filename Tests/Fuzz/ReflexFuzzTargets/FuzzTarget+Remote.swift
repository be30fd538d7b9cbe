import ReflexCore

/// What a phone (or anyone on the camera's network) sends the remote and Reflex reads itself
/// (SwiftNIO reads the HTTP framing): a request's path, its Range and Cookie headers, and a
/// form body, one per line in that order. Whatever comes, a file route names a DCF folder
/// and file and nothing else, a range lies inside the file, and a control is one the camera
/// knows with values in their range.
extension FuzzTarget {
    static let remoteTargets: [FuzzTarget] = [
        FuzzTarget("remote-request", "a remote request's path, Range, Cookie and form (RemoteRoute, ByteRange, FormFields)") { bytes in
            let lines = bytes.split(separator: UInt8(ascii: "\n"), maxSplits: 3, omittingEmptySubsequences: false)
            func line(_ index: Int) -> String { index < lines.count ? String(decoding: lines[index], as: UTF8.self) : "" }
            switch RemoteRoute(path: line(0)) {
            case .file(let folder, let name), .thumbnail(let folder, let name):
                guard DCFName.folderNumber(folder) != nil, DCFName.file(name) != nil, !(folder + name).contains("/"),
                      !name.hasPrefix(".") else { fatalError("a route reaches beyond the card's DCF names: \(folder)/\(name)") }
            case .page(let name):
                guard !name.contains("/"), !name.hasPrefix("."), !name.contains("..") else { fatalError("a page name escapes: \(name)") }
            default: break
            }
            let size = Int64(lines.count > 1 ? lines[1].count * 37 : 0)
            if case .part(let part) = ByteRange(header: line(1), size: size) {
                guard part.lowerBound >= 0, part.upperBound <= size, !part.isEmpty else { fatalError("range \(part) of \(size)") }
            }
            _ = RemoteCookie.token(in: [line(2)])
            if lines.count > 3, let fields = FormFields.parse(Array(lines[3])), let control = RemoteControl(form: fields) {
                switch control {
                case .turn(_, let steps): guard (-20...20).contains(steps), steps != 0 else { fatalError("steps \(steps)") }
                case .tap(let x, let y): guard (0...1).contains(x), (0...1).contains(y) else { fatalError("tap \(x), \(y)") }
                default: break
                }
            }
        },
    ]
}
