import NIOCore
import NIOHTTP1
import ReflexCore
import ReflexFormats
import ReflexStorage
import ReflexSystem

/// The card's index for the page (newest first, as review shows it), an item's thumbnail, and
/// delete: each read or done on the card thread, answered on the event loop. A file still being
/// written is not offered; a delete goes through review's own (`CardEraser`: a pair as one, a
/// protected item refused, finished after a power cut).
enum CardItemsAnswer {
    static func send(head: HTTPRequestHead, context: ChannelHandlerContext, handler: RemoteHTTPHandler) {
        let camera = handler.site.camera
        answer(head, context, handler) { () -> (HTTPResponseStatus, JSONText) in
            guard let root = camera.cardRoot else { return (.serviceUnavailable, .object([("error", .string("no card"))])) }
            let writing = camera.fileBeingWritten
            let items = CardCatalog.items(onCardAt: root).compactMap { item -> ReviewItem? in
                var item = item
                item.files.removeAll { PhotoCard(root: root).dcim + "/" + item.folder + "/" + $0.name == writing }
                return item.files.isEmpty ? nil : item
            }
            return (.ok, .object([("items", .array(items.map(json)))]))
        }
    }

    static func delete(folder: String, name: String, head: HTTPRequestHead, context: ChannelHandlerContext, handler: RemoteHTTPHandler) {
        let camera = handler.site.camera, site = handler.site
        answer(head, context, handler) { () -> (HTTPResponseStatus, JSONText) in
            guard let root = camera.cardRoot else { return (.serviceUnavailable, .object([("error", .string("no card"))])) }
            guard let item = item(folder: folder, name: name, root: root) else { return (.notFound, .object([("error", .string("not found"))])) }
            let dcim = PhotoCard(root: root).dcim + "/" + item.folder + "/"
            if let writing = camera.fileBeingWritten, item.files.contains(where: { dcim + $0.name == writing }) {
                return (.conflict, .object([("error", .string("still being written"))]))
            }
            guard !item.isProtected else { return (.forbidden, .object([("error", .string("protected"))])) }
            do {
                try CardEraser.delete(item, onCardAt: root)
                site.say("deleted-\(item.name)", "a phone deleted \(item.name)")
                return (.ok, .object([("deleted", .array(item.files.map { .string($0.name) }))]))
            } catch {
                return (.internalServerError, .object([("error", .string("\(error)"))]))
            }
        }
    }

    static func thumbnail(folder: String, name: String, head: HTTPRequestHead, context: ChannelHandlerContext, handler: RemoteHTTPHandler) {
        let camera = handler.site.camera
        let bound = NIOLoopBound((handler, context), eventLoop: context.eventLoop)
        handler.site.cardWork.runIfActive(eventLoop: context.eventLoop) { () -> [UInt8]? in
            guard let root = camera.cardRoot, let parts = DCFName.file(name) else { return nil }
            let path = PhotoCard(root: root).dcim + "/" + folder + "/" + name
            switch ReviewItem.Kind(extension: parts.extension) {
            case .jpeg: return (try? AtomicFile.read(path, limit: 64 * 1024)).flatMap(EmbeddedThumbnail.ofJPEG)?.jpeg()
            case .raw: return (try? AtomicFile.read(path, limit: 512 * 1024)).flatMap(EmbeddedThumbnail.ofDNG)?.jpeg()
            case .movie, .other: return nil
            }
        }.whenComplete { result in
            let (handler, context) = bound.value
            guard case .success(let jpeg?) = result else {
                return handler.respond(context, head, .notFound, json: .object([("error", .string("no thumbnail"))]))
            }
            var headers = HTTPHeaders()
            headers.add(name: "Content-Type", value: "image/jpeg")
            headers.add(name: "Cache-Control", value: "private, max-age=3600")
            handler.respond(context, head, .ok, headers: headers, body: jpeg)
        }
    }

    /// The item `name` belongs to in `folder` (a pair's either file names the pair).
    private static func item(folder: String, name: String, root: String) -> ReviewItem? {
        CardCatalog.items(onCardAt: root).first { item in
            item.folder.uppercased() == folder.uppercased() && item.files.contains { $0.name.uppercased() == name.uppercased() }
        }
    }

    private static func json(_ item: ReviewItem) -> JSONText {
        .object([("name", .string(item.name)), ("folder", .string(item.folder)), ("format", .string(item.format)),
                 ("protected", .bool(item.isProtected)), ("modified", .number(Double(item.modified))),
                 ("files", .array(item.files.map { file in
                     .object([("name", .string(file.name)), ("kind", .string(file.kind.rawValue)), ("bytes", .number(Double(file.bytes)))])
                 }))])
    }

    /// `work` on the card thread, its status and JSON answered on the event loop.
    private static func answer(_ head: HTTPRequestHead, _ context: ChannelHandlerContext, _ handler: RemoteHTTPHandler,
                               _ work: @escaping @Sendable () -> (HTTPResponseStatus, JSONText)) {
        let bound = NIOLoopBound((handler, context), eventLoop: context.eventLoop)
        handler.site.cardWork.runIfActive(eventLoop: context.eventLoop, work).whenComplete { result in
            let (handler, context) = bound.value
            switch result {
            case .success(let (status, json)): handler.respond(context, head, status, json: json)
            case .failure: handler.respond(context, head, .serviceUnavailable, json: .object([("error", .string("stopping"))]))
            }
        }
    }
}
