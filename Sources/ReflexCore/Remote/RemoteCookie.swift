/// The cookie a paired phone carries its token in: HttpOnly (the page's scripts never see
/// it), SameSite=Strict (no other site's page can make the phone's browser send it), kept a
/// year (until the camera forgets its phones).
public enum RemoteCookie {
    public static let name = "reflex_token"

    /// The `Set-Cookie` value that gives a phone `token`.
    public static func setting(_ token: String) -> String {
        "\(name)=\(token); Path=/; HttpOnly; SameSite=Strict; Max-Age=31536000"
    }

    /// The token in a request's `Cookie` headers (nil: none).
    public static func token(in headers: [String]) -> String? {
        for header in headers {
            for pair in header.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                if parts.count == 2, parts[0].trimmingSpaces == name { return parts[1].trimmingSpaces }
            }
        }
        return nil
    }
}
