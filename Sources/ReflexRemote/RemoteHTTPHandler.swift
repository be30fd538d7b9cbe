import NIOCore
import NIOHTTP1
import ReflexCore

/// One connection's requests: each read whole (its body at most `RemoteSite.bodyBytes`), its
/// route found, its token checked where the route needs one, and answered; the card's work on
/// the site's card thread, the answer back on the event loop. A request that cannot be read
/// is answered by NIO's error handler (400) and the connection closed.
final class RemoteHTTPHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    let site: RemoteSite
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []
    private var bodyTooLarge = false
    /// An answer is being written (a file, from the card thread): the next request waits.
    private var answering = false

    init(site: RemoteSite) {
        self.site = site
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            (self.head, body, bodyTooLarge) = (head, [], false)
        case .body(var chunk):
            if body.count + chunk.readableBytes > RemoteSite.bodyBytes {
                bodyTooLarge = true
            } else if let bytes = chunk.readBytes(length: chunk.readableBytes) {
                body += bytes
            }
        case .end:
            guard let head else { return }
            self.head = nil
            if bodyTooLarge {
                site.say("too-large", "a request's body over \(RemoteSite.bodyBytes) bytes was refused")
                respond(context, head, .payloadTooLarge, json: JSONText.object([("error", .string("too large"))]), close: true)
                return
            }
            answer(context, head, body)
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is IdleStateHandler.IdleStateEvent {
            // (A browser's idle keep-alive connection is closed quietly; a request left half
            // sent, as a slow client leaves it, is said.)
            if head != nil { site.say("slow", "a request not sent whole in \(RemoteSite.idleSeconds) s was dropped") }
            context.close(promise: nil)
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        site.say("error", "a request that could not be read was refused: \(error)")
        context.close(promise: nil)
    }

    // MARK: the routes

    private func answer(_ context: ChannelHandlerContext, _ head: HTTPRequestHead, _ body: [UInt8]) {
        let route = RemoteRoute(path: head.uri)
        let paired = site.pairing.admits(RemoteCookie.token(in: head.headers["cookie"]))
        switch (route, head.method) {
        case (.page(let name), .GET), (.page(let name), .HEAD):
            let path = site.pageFolder + "/" + name
            CardFileAnswer.send(path: path, type: Self.contentType(name), head: head, context: context, handler: self)
        case (.pair, .POST):
            pair(context, head, body)
        case (.status, .GET) where paired:
            respond(context, head, .ok, json: nil, text: site.camera.statusJSON())
        case (.items, .GET) where paired:
            CardItemsAnswer.send(head: head, context: context, handler: self)
        case (.file(let folder, let name), .GET) where paired, (.file(let folder, let name), .HEAD) where paired:
            guard let root = site.camera.cardRoot else { return noCard(context, head) }
            let path = root + "/DCIM/" + folder + "/" + name
            guard path != site.camera.fileBeingWritten else {
                return respond(context, head, .notFound, json: .object([("error", .string("still being written"))]))
            }
            CardFileAnswer.send(path: path, type: Self.contentType(name), head: head, context: context, handler: self)
        case (.file(let folder, let name), .DELETE) where paired:
            CardItemsAnswer.delete(folder: folder, name: name, head: head, context: context, handler: self)
        case (.thumbnail(let folder, let name), .GET) where paired:
            CardItemsAnswer.thumbnail(folder: folder, name: name, head: head, context: context, handler: self)
        case (.control, .POST) where paired:
            control(context, head, body)
        case (.status, _), (.items, _), (.file, _), (.thumbnail, _), (.control, _), (.live, _):
            if !paired && [.GET, .HEAD, .POST, .DELETE].contains(head.method) {
                site.say("unpaired", "a request without a paired phone's token was refused (\(head.method) \(head.uri.prefix(80)))")
                respond(context, head, .unauthorized, json: .object([("error", .string("not paired"))]))
            } else if route == .live {
                respond(context, head, .upgradeRequired, json: .object([("error", .string("a WebSocket only"))]))
            } else {
                respond(context, head, .methodNotAllowed, json: .object([("error", .string("method not allowed"))]))
            }
        case (.page, _), (.pair, _):
            respond(context, head, .methodNotAllowed, json: .object([("error", .string("method not allowed"))]))
        case (.notFound, _):
            respond(context, head, .notFound, json: .object([("error", .string("not found"))]))
        }
    }

    private func pair(_ context: ChannelHandlerContext, _ head: HTTPRequestHead, _ body: [UInt8]) {
        guard let code = FormFields.parse(body)?["code"] else {
            return respond(context, head, .badRequest, json: .object([("error", .string("no code"))]))
        }
        switch site.pairing.pair(code: code) {
        case .paired(let token):
            var headers = HTTPHeaders()
            headers.add(name: "Set-Cookie", value: RemoteCookie.setting(token))
            respond(context, head, .ok, json: .object([("paired", .bool(true))]), headers: headers)
        case .wrongCode(let left):
            site.say("wrong-code", "a wrong pairing code was tried")
            respond(context, head, .forbidden, json: .object([("error", .string("wrong code")), ("triesLeft", .number(Double(left)))]))
        case .locked(let seconds):
            var headers = HTTPHeaders()
            headers.add(name: "Retry-After", value: String(seconds))
            respond(context, head, .tooManyRequests, json: .object([("error", .string("locked")), ("seconds", .number(Double(seconds)))]),
                    headers: headers)
        }
    }

    private func control(_ context: ChannelHandlerContext, _ head: HTTPRequestHead, _ body: [UInt8]) {
        guard let fields = FormFields.parse(body), let control = RemoteControl(form: fields) else {
            site.say("bad-control", "a control that could not be read was refused")
            return respond(context, head, .badRequest, json: .object([("error", .string("unknown control"))]))
        }
        guard site.mayControl(token: RemoteCookie.token(in: head.headers["cookie"])) else {
            site.say("other-controller", "a control from a second phone was refused: another has the controls")
            return respond(context, head, .conflict, json: .object([("error", .string(Self.anotherHasTheControls))]))
        }
        if let refused = site.camera.control(control) {
            respond(context, head, .conflict, json: .object([("error", .string(refused))]))
        } else {
            respond(context, head, .ok, json: .object([("done", .bool(true))]))
        }
    }

    static let anotherHasTheControls = "Another phone has the controls: this one may watch"

    private func noCard(_ context: ChannelHandlerContext, _ head: HTTPRequestHead) {
        respond(context, head, .serviceUnavailable, json: .object([("error", .string("no card"))]))
    }

    // MARK: answering

    /// A whole answer: `json` (or `text`, JSON already) with its length; the connection kept
    /// as the request asked unless `close`.
    func respond(_ context: ChannelHandlerContext, _ head: HTTPRequestHead, _ status: HTTPResponseStatus, json: JSONText?,
                 text: String? = nil, headers extra: HTTPHeaders = HTTPHeaders(), close: Bool = false) {
        let bytes = Array((text ?? json?.text ?? "").utf8)
        var headers = extra
        headers.add(name: "Content-Type", value: "application/json; charset=utf-8")
        headers.add(name: "Cache-Control", value: "no-store")
        respond(context, head, status, headers: headers, body: bytes, close: close)
    }

    func respond(_ context: ChannelHandlerContext, _ head: HTTPRequestHead, _ status: HTTPResponseStatus, headers extra: HTTPHeaders,
                 body bytes: [UInt8], close: Bool = false) {
        var headers = extra
        headers.add(name: "Content-Length", value: String(bytes.count))
        let keepAlive = head.isKeepAlive && !close
        if !keepAlive { headers.add(name: "Connection", value: "close") }
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: status, headers: headers))), promise: nil)
        if head.method != .HEAD && !bytes.isEmpty {
            var buffer = context.channel.allocator.buffer(capacity: bytes.count)
            buffer.writeBytes(bytes)
            context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
        }
        end(context, keepAlive: keepAlive)
    }

    /// The answer's end; the connection closed after it unless kept alive.
    func end(_ context: ChannelHandlerContext, keepAlive: Bool) {
        let written = context.writeAndFlush(wrapOutboundOut(.end(nil)))
        if !keepAlive {
            let channel = context.channel
            written.whenComplete { _ in channel.close(promise: nil) }
        }
    }

    static func contentType(_ name: String) -> String {
        switch name.split(separator: ".").last?.lowercased() {
        case "html": "text/html; charset=utf-8"
        case "js": "text/javascript; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "svg": "image/svg+xml"
        case "png": "image/png"
        case "jpg", "jpeg": "image/jpeg"
        case "dng": "image/x-adobe-dng"
        case "mp4": "video/mp4"
        case "json": "application/json"
        default: "application/octet-stream"
        }
    }
}
