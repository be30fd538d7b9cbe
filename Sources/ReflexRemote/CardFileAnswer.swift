import NIOCore
import NIOHTTP1
import ReflexCore
#if canImport(Glibc)
import Glibc
#endif

/// A file sent whole or in the part a `Range` asks (a phone's player seeking in a movie):
/// opened on the card thread (a card can be slow), then sent by the kernel from the file to
/// the socket (sendfile, through NIO's FileRegion), never held in memory.
enum CardFileAnswer {
    /// An open regular file and its size; its descriptor is the answer's to close.
    struct Opened: Sendable {
        let descriptor: Int32
        let size: Int64
    }

    static func open(_ path: String) -> Opened? {
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else { return nil }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            return nil
        }
        return Opened(descriptor: descriptor, size: Int64(status.st_size))
    }

    static func send(path: String, type: String, head: HTTPRequestHead, context: ChannelHandlerContext, handler: RemoteHTTPHandler) {
        let bound = NIOLoopBound((handler, context), eventLoop: context.eventLoop)
        let range = head.headers["range"].first
        handler.site.cardWork.runIfActive(eventLoop: context.eventLoop) { open(path) }.whenComplete { result in
            let (handler, context) = bound.value
            guard case .success(let opened?) = result else {
                return handler.respond(context, head, .notFound, json: .object([("error", .string("not found"))]))
            }
            write(opened, type: type, range: ByteRange(header: range, size: opened.size), head: head, context: context, handler: handler)
        }
    }

    private static func write(_ file: Opened, type: String, range: ByteRange, head: HTTPRequestHead, context: ChannelHandlerContext,
                              handler: RemoteHTTPHandler) {
        var headers = HTTPHeaders()
        headers.add(name: "Accept-Ranges", value: "bytes")
        if let contentRange = range.contentRange(size: file.size) { headers.add(name: "Content-Range", value: contentRange) }
        let part: Range<Int64>
        switch range {
        case .unsatisfiable:
            close(file.descriptor)
            return handler.respond(context, head, .rangeNotSatisfiable, headers: headers, body: [])
        case .whole: part = 0..<file.size
        case .part(let asked): part = asked
        }
        headers.add(name: "Content-Type", value: type)
        headers.add(name: "Content-Length", value: String(part.count))
        headers.add(name: "Cache-Control", value: "private, no-cache")
        let status: HTTPResponseStatus = range == .whole ? .ok : .partialContent
        let sendsBody = head.method != .HEAD && !part.isEmpty
        // Corked, the head and the file leave in full segments and the last part at the
        // uncork (as nginx's tcp_nopush); with TCP_NODELAY alone each sendfile's tail went out
        // as a small segment of its own: a quarter slower on the loopback.
        if sendsBody { setCorked(true, context) }
        context.write(handler.wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: status, headers: headers))),
                      promise: nil)
        if sendsBody {
            let handle = NIOFileHandle(_deprecatedTakingOwnershipOfDescriptor: file.descriptor)
            let region = FileRegion(fileHandle: handle, readerIndex: Int(part.lowerBound), endIndex: Int(part.upperBound))
            let channel = NIOLoopBound(context, eventLoop: context.eventLoop)
            context.write(handler.wrapOutboundOut(.body(.fileRegion(region)))).whenComplete { _ in
                try? handle.close()
                setCorked(false, channel.value)
            }
        } else {
            close(file.descriptor)
        }
        handler.end(context, keepAlive: head.isKeepAlive)
    }

    private static let cork = NIOBSDSocket.Option(rawValue: TCP_CORK)

    private static func setCorked(_ corked: Bool, _ context: ChannelHandlerContext) {
        _ = context.channel.setOption(.tcpOption(cork), value: corked ? 1 : 0)
    }
}
