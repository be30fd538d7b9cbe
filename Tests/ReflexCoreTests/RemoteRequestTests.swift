import ReflexCore
import Testing

/// What the remote's requests ask for (issue 54): the routes and the names that may reach a
/// file, the Range a phone's movie player sends as it seeks, the token's cookie.
@Suite struct RemoteRequestTests {
    @Test func routesByPath() {
        #expect(RemoteRoute(path: "/") == .page("index.html"))
        #expect(RemoteRoute(path: "/remote.js?v=2") == .page("remote.js"))
        #expect(RemoteRoute(path: "/api/pair") == .pair && RemoteRoute(path: "/api/status") == .status)
        #expect(RemoteRoute(path: "/api/items") == .items && RemoteRoute(path: "/api/control") == .control)
        #expect(RemoteRoute(path: "/live") == .live)
        #expect(RemoteRoute(path: "/card/100REFLX/RFLX0042.DNG") == .file(folder: "100REFLX", name: "RFLX0042.DNG"))
        #expect(RemoteRoute(path: "/thumb/101CANON/IMG_0815.JPG") == .thumbnail(folder: "101CANON", name: "IMG_0815.JPG"))
    }

    @Test func onlyTheCamerasOwnNamesReachAFile() {
        for path in ["", "/card/../etc/passwd", "/card/100REFLX/../../etc/passwd", "/card/100REFLX/.RFLX0001.JPG.part",
                     "/card/100REFLX/RFLX0001.JPG/x", "/card/DCIM/RFLX0001.JPG", "/card/100REFLX/passwd",
                     "/card/100REFLX/RFLX%30001.JPG", "/..", "/.hidden", "/a/b", "/api/pair/x", "/api", "/api/nothing",
                     "/index.html%00", "/remote..js", "//etc/passwd", "/thumb/100REFLX"] {
            #expect(RemoteRoute(path: path) == .notFound, "\(path)")
        }
    }

    @Test func aRangeAsPlayersSendIt() {
        #expect(ByteRange(header: nil, size: 1000) == .whole)
        #expect(ByteRange(header: "bytes=0-99", size: 1000) == .part(0..<100))
        #expect(ByteRange(header: "bytes=900-", size: 1000) == .part(900..<1000))
        #expect(ByteRange(header: "bytes=-100", size: 1000) == .part(900..<1000))
        #expect(ByteRange(header: "bytes=-5000", size: 1000) == .part(0..<1000))
        #expect(ByteRange(header: "bytes=500-99999", size: 1000) == .part(500..<1000), "clipped to the end")
        #expect(ByteRange(header: " bytes=0-0 ", size: 1000) == .part(0..<1))
        #expect(ByteRange(header: "bytes=0-1,5-6", size: 1000) == .whole, "several: the whole file")
        #expect(ByteRange(header: "items=0-1", size: 1000) == .whole, "another unit is ignored")
    }

    @Test func aRangeNoFileCanGiveIsRefused() {
        for header in ["bytes=1000-", "bytes=1000-1001", "bytes=5-4", "bytes=-0", "bytes=abc", "bytes=-", "bytes=1-2-3",
                       "bytes=+1-2", "bytes=99999999999999999999-"] {
            #expect(ByteRange(header: header, size: 1000) == .unsatisfiable, "\(header)")
        }
        #expect(ByteRange(header: "bytes=0-", size: 0) == .unsatisfiable)
        #expect(ByteRange.unsatisfiable.contentRange(size: 1000) == "bytes */1000")
        #expect(ByteRange.part(0..<100).contentRange(size: 1000) == "bytes 0-99/1000")
    }

    @Test func theTokenRidesInItsCookie() {
        let setting = RemoteCookie.setting("abc")
        #expect(setting.hasPrefix("reflex_token=abc;") && setting.contains("HttpOnly") && setting.contains("SameSite=Strict"))
        #expect(RemoteCookie.token(in: ["theme=dark; reflex_token=abc ; x=1"]) == "abc")
        #expect(RemoteCookie.token(in: ["a=1", "reflex_token=def"]) == "def")
        #expect(RemoteCookie.token(in: ["not_reflex_token=abc"]) == nil && RemoteCookie.token(in: []) == nil)
    }
}
